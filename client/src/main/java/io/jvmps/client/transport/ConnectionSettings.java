package io.jvmps.client.transport;

import io.jvmps.common.security.ClusterSecret;

import java.time.Duration;
import java.util.Objects;

/**
 * How a client connects to the job's servers. Immutable.
 *
 * @param secret      the cluster secret every server requires in the RSocket SETUP frame
 *                    ({@code ps.security.secret} of the servers)
 * @param tcp         plain TCP or TLS ({@link TcpClients#PLAIN} unless the cluster has a TLS bundle)
 * @param lossTimeout a connection counts as lost after this long without a frame from the server; keep-alive
 *                    frames go every fifth of it (the worker's {@code ps.worker.connection-loss-timeout},
 *                    default 30 s)
 */
public record ConnectionSettings(ClusterSecret secret, TcpClients tcp, Duration lossTimeout) {
    /** Checks the arguments. */
    public ConnectionSettings {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(tcp, "tcp");
        if (lossTimeout == null || lossTimeout.toMillis() < 5) {
            throw new IllegalArgumentException("lossTimeout must be at least 5 ms, got " + lossTimeout);
        }
    }

    /** @return plain TCP with the given secret and a 30 s loss timeout */
    public static ConnectionSettings plain(ClusterSecret secret) {
        return new ConnectionSettings(secret, TcpClients.PLAIN, Duration.ofSeconds(30));
    }
}
