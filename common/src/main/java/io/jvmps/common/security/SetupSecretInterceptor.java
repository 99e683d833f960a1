package io.jvmps.common.security;

import io.netty.buffer.ByteBuf;
import io.rsocket.ConnectionSetupPayload;
import io.rsocket.SocketAcceptor;
import io.rsocket.exceptions.RejectedSetupException;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.plugins.SocketAcceptorInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Accepts an RSocket connection only if its SETUP frame carries the cluster secret (composite metadata
 * entry {@link ClusterSecret#SETUP_MIME_TYPE}). Any other connection is refused with a REJECTED_SETUP
 * error whose message starts with {@code [UNAUTHENTICATED]}, before any route can be reached, and the
 * refusal is logged. It can also require the connection's data MIME type (a server decodes its JSON
 * requests with it, so another type would make every later request fail): a SETUP with another one is
 * refused with {@code [INVALID_ARGUMENT]}. Stateless and thread-safe.
 */
public final class SetupSecretInterceptor implements SocketAcceptorInterceptor {
    private static final Logger log = LoggerFactory.getLogger(SetupSecretInterceptor.class);
    private static final String COMPOSITE = WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString();

    private final ClusterSecret secret;
    private final String dataMimeType;

    /** @param secret the secret connections must present */
    public SetupSecretInterceptor(ClusterSecret secret) {
        this(secret, null);
    }

    /**
     * @param secret       the secret connections must present
     * @param dataMimeType the data MIME type connections must declare (e.g. {@code application/json}), or null
     *                     for any
     */
    public SetupSecretInterceptor(ClusterSecret secret, String dataMimeType) {
        this.secret = secret;
        this.dataMimeType = dataMimeType;
    }

    @Override
    public SocketAcceptor apply(SocketAcceptor next) {
        return (setup, sendingSocket) -> {
            Optional<String> presented = presented(setup);
            if (presented.isPresent() && secret.matches(presented.get())) {
                if (dataMimeType != null && !dataMimeType.equals(setup.dataMimeType())) {
                    log.warn("Rejected an RSocket connection from {}: data MIME type '{}' (this node speaks {})",
                            PeerAddresses.current(), setup.dataMimeType(), dataMimeType);
                    return Mono.error(new RejectedSetupException("[INVALID_ARGUMENT] data MIME type '"
                            + setup.dataMimeType() + "' is not spoken here; set up the connection with "
                            + dataMimeType));
                }
                return next.accept(setup, sendingSocket);
            }
            String reason = presented.isEmpty() ? "no cluster secret in the RSocket SETUP metadata"
                    : "wrong cluster secret in the RSocket SETUP metadata";
            log.warn("Rejected an RSocket connection from {}: {}", PeerAddresses.current(), reason);
            return Mono.error(new RejectedSetupException("[UNAUTHENTICATED] " + reason
                    + "; every node needs the same ps.security.secret"));
        };
    }

    /** @return the secret in the setup's composite metadata, if any */
    static Optional<String> presented(ConnectionSetupPayload setup) {
        return entry(setup, ClusterSecret.SETUP_MIME_TYPE);
    }

    /**
     * @param mimeType the composite metadata entry's type
     * @return the first entry of that type in the setup's composite metadata, as UTF-8 text; empty when there is
     *         none or the metadata is not composite or cannot be read
     */
    public static Optional<String> entry(ConnectionSetupPayload setup, String mimeType) {
        if (!COMPOSITE.equals(setup.metadataMimeType()) || !setup.hasMetadata()) {
            return Optional.empty();
        }
        try {
            for (CompositeMetadata.Entry entry : new CompositeMetadata(setup.metadata(), false)) {
                if (mimeType.equals(entry.getMimeType())) {
                    ByteBuf content = entry.getContent();
                    return Optional.of(content.toString(StandardCharsets.UTF_8));
                }
            }
        } catch (RuntimeException malformed) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
