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

    /**
     * A lazily connecting RSocket client to one node, presenting the cluster secret in its SETUP frame with
     * composite metadata (routes go there too), keep-alive by {@link #lossTimeout}.
     *
     * @param dataMimeType what the data of every payload is, e.g. {@code application/json}
     */
    public io.rsocket.core.RSocketClient connect(String host, int port, String dataMimeType) {
        io.rsocket.core.RSocketConnector connector = io.rsocket.core.RSocketConnector.create()
                .metadataMimeType(io.rsocket.metadata.WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString())
                .dataMimeType(dataMimeType)
                .keepAlive(lossTimeout.dividedBy(5), lossTimeout)
                .setupPayload(reactor.core.publisher.Mono.fromSupplier(() -> setupPayload(secret.reveal())));
        return io.rsocket.core.RSocketClient.from(connector.connect(() -> tcp.transport(host, port)));
    }

    /** @return the SETUP payload: no data, composite metadata with the cluster secret */
    private static io.rsocket.Payload setupPayload(String secret) {
        io.netty.buffer.CompositeByteBuf metadata = io.netty.buffer.ByteBufAllocator.DEFAULT.compositeBuffer();
        io.rsocket.metadata.CompositeMetadataCodec.encodeAndAddMetadata(metadata,
                io.netty.buffer.ByteBufAllocator.DEFAULT, ClusterSecret.SETUP_MIME_TYPE,
                io.netty.buffer.Unpooled.copiedBuffer(secret, java.nio.charset.StandardCharsets.UTF_8));
        return io.rsocket.util.ByteBufPayload.create(io.netty.buffer.Unpooled.EMPTY_BUFFER, metadata);
    }
}
