package io.jvmps.common.security;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.nio.file.Path;

/**
 * Spring wiring every role imports: binds {@code ps.security.*} (relaxed names, so
 * {@code PS_SECURITY_SECRET} works), resolves the {@link ClusterSecret} at start-up (a bad value stops
 * the node naming the property) and installs the {@link ClusterSecretWebFilter}. RSocket roles add a
 * {@link SetupSecretInterceptor} to their server and send the secret in their SETUP frames.
 */
@Configuration(proxyBeanMethods = false)
public class ClusterSecurityConfiguration {
    private static final Logger log = LoggerFactory.getLogger(ClusterSecurityConfiguration.class);

    @Bean
    SecuritySettings securitySettings(Environment env) {
        Binder binder = Binder.get(env);
        String secret = binder.bind("ps.security.secret", String.class).orElse("");
        String file = binder.bind("ps.security.secret-file", String.class)
                .orElse(System.getProperty("user.home") + "/.jvm-ps/cluster-secret");
        boolean protectReads = binder.bind("ps.security.protect-reads", Boolean.class).orElse(false);
        String tlsBundle = binder.bind("ps.security.tls.bundle", String.class).orElse("");
        return new SecuritySettings(secret, Path.of(file), protectReads, tlsBundle);
    }

    @Bean
    ClusterSecret clusterSecret(SecuritySettings settings) {
        ClusterSecret secret = ClusterSecret.resolve(settings.secret(), settings.secretFile(), log::warn);
        log.info("Cluster secret {}; reads {}",
                settings.secret().isBlank() ? "from " + settings.secretFile() : "from ps.security.secret",
                settings.protectReads() ? "need it too (ps.security.protect-reads=true)" : "are open");
        return secret;
    }

    /** TLS for this node's outgoing connections, from the SSL bundle named by {@code ps.security.tls.bundle}. */
    @Bean
    ClusterTls clusterTls(SecuritySettings settings, org.springframework.beans.factory.ObjectProvider<SslBundles> bundles) {
        String name = settings.tlsBundle();
        if (name.isBlank()) {
            return ClusterTls.off();
        }
        SslBundles registry = bundles.getIfAvailable();
        if (registry == null) {
            throw new IllegalStateException("ps.security.tls.bundle=" + name + " but no SSL bundles are configured"
                    + " (spring.ssl.bundle.jks." + name + ".* or spring.ssl.bundle.pem." + name + ".*)");
        }
        try {
            ClusterTls tls = ClusterTls.of(name, registry.getBundle(name));
            log.info("Cluster connections use {}", tls);
            return tls;
        } catch (NoSuchSslBundleException e) {
            throw new IllegalStateException("ps.security.tls.bundle=" + name + " names no SSL bundle: define "
                    + "spring.ssl.bundle.jks." + name + ".* or spring.ssl.bundle.pem." + name + ".*", e);
        }
    }

    @Bean
    ClusterSecretWebFilter clusterSecretWebFilter(ClusterSecret secret, SecuritySettings settings) {
        return new ClusterSecretWebFilter(secret, settings.protectReads());
    }
}
