package io.jvmps.common.security;

import org.springframework.boot.ssl.SslBundle;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The cluster's TLS material as a client needs it: the Spring SSL bundle named by
 * {@code ps.security.tls.bundle} (its trust store decides which node certificates are accepted, its
 * key store is presented when a server asks for a client certificate), or nothing for plain TCP and
 * HTTP. The same bundle secures this node's own HTTP and RSocket servers ({@link TlsDefaults}).
 * Immutable and thread-safe.
 */
public final class ClusterTls {
    private static final ClusterTls OFF = new ClusterTls(null, null);

    private final String name;
    private final SslBundle bundle;

    private ClusterTls(String name, SslBundle bundle) {
        this.name = name;
        this.bundle = bundle;
    }

    /** @return plain TCP and HTTP */
    public static ClusterTls off() {
        return OFF;
    }

    /**
     * @param name   the bundle's name, for messages
     * @param bundle the bundle
     * @return TLS with that bundle
     */
    public static ClusterTls of(String name, SslBundle bundle) {
        return new ClusterTls(name, bundle);
    }

    /** @return whether connections use TLS */
    public boolean enabled() {
        return bundle != null;
    }

    /** @return a client context for HTTPS, or null when TLS is off */
    public SSLContext sslContext() {
        return bundle == null ? null : bundle.createSslContext();
    }

    /** @return the trust managers of the bundle (TLS on only) */
    public TrustManagerFactory trustManagers() {
        return bundle.getManagers().getTrustManagerFactory();
    }

    /** @return the key managers of the bundle (TLS on only) */
    public KeyManagerFactory keyManagers() {
        return bundle.getManagers().getKeyManagerFactory();
    }

    @Override
    public String toString() {
        return bundle == null ? "TLS off" : "TLS with SSL bundle '" + name + "'";
    }
}
