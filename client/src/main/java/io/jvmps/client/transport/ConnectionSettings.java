package io.jvmps.client.transport;

import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.NodeToken;

import java.time.Duration;
import java.util.Objects;

/**
 * How a client connects to the job's servers. Immutable.
 *
 * @param secret      the cluster secret every server requires in the RSocket SETUP frame
 *                    ({@code ps.security.secret} of the servers)
 * @param tcp         plain TCP or TLS ({@link TcpClients#PLAIN} unless the cluster has a TLS bundle)
 * @param lossTimeout a connection counts as lost after this long without a frame from the server; keep-alive
 *                    frames go every fifth of it (the worker's {@code ps.worker.servers.connection-loss-timeout},
 *                    default 30 s)
 * @param nodeId      the registered node these connections speak for, or null before registration
 * @param nodeToken   that node's token from its registration ({@link NodeToken}), or null; servers of a job with
 *                    a scheduler refuse a connection without it and bind every request on it to that node
 */
public record ConnectionSettings(ClusterSecret secret, TcpClients tcp, Duration lossTimeout, String nodeId,
                                 String nodeToken) {
    /** Checks the arguments. */
    public ConnectionSettings {
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(tcp, "tcp");
        if (lossTimeout == null || lossTimeout.toMillis() < 5) {
            throw new IllegalArgumentException("lossTimeout must be at least 5 ms, got " + lossTimeout);
        }
        if ((nodeId == null) != (nodeToken == null)) {
            throw new IllegalArgumentException("a node identity needs both the node id and its token");
        }
    }

    /** Settings that speak for no node yet (before registration). */
    public ConnectionSettings(ClusterSecret secret, TcpClients tcp, Duration lossTimeout) {
        this(secret, tcp, lossTimeout, null, null);
    }

    /** @return these settings speaking for the registered node {@code nodeId}, proven by {@code nodeToken} */
    public ConnectionSettings identifiedAs(String nodeId, String nodeToken) {
        return new ConnectionSettings(secret, tcp, lossTimeout, Objects.requireNonNull(nodeId, "nodeId"),
                Objects.requireNonNull(nodeToken, "nodeToken"));
    }

    /** Never prints the secret or the token. */
    @Override
    public String toString() {
        return "ConnectionSettings[tcp=" + tcp + ", lossTimeout=" + lossTimeout + ", nodeId=" + nodeId + "]";
    }

    /** @return plain TCP with the given secret and a 30 s loss timeout */
    public static ConnectionSettings plain(ClusterSecret secret) {
        return new ConnectionSettings(secret, TcpClients.PLAIN, Duration.ofSeconds(30));
    }

    /**
     * A lazily connecting RSocket client to one node, presenting the cluster secret in its SETUP frame with
     * composite metadata (routes go there too), keep-alive by {@link #lossTimeout}. Installs
     * {@link io.jvmps.common.startup.DroppedErrors} (once per JVM): closing a client whose node is down makes RSocket
     * drop a cancellation, which Reactor's default would log as an ERROR with a stack trace.
     *
     * @param dataMimeType what the data of every payload is, e.g. {@code application/json}
     */
    public io.rsocket.core.RSocketClient connect(String host, int port, String dataMimeType) {
        io.jvmps.common.startup.DroppedErrors.install();
        io.rsocket.core.RSocketConnector connector = io.rsocket.core.RSocketConnector.create()
                .metadataMimeType(io.rsocket.metadata.WellKnownMimeType.MESSAGE_RSOCKET_COMPOSITE_METADATA.getString())
                .dataMimeType(dataMimeType)
                .keepAlive(lossTimeout.dividedBy(5), lossTimeout)
                .setupPayload(reactor.core.publisher.Mono.fromSupplier(this::setupPayload));
        return io.rsocket.core.RSocketClient.from(connector.connect(() -> tcp.transport(host, port)));
    }

    /** @return the SETUP payload: no data, composite metadata with the cluster secret and the node identity */
    private io.rsocket.Payload setupPayload() {
        io.netty.buffer.CompositeByteBuf metadata = io.netty.buffer.ByteBufAllocator.DEFAULT.compositeBuffer();
        io.rsocket.metadata.CompositeMetadataCodec.encodeAndAddMetadata(metadata,
                io.netty.buffer.ByteBufAllocator.DEFAULT, ClusterSecret.SETUP_MIME_TYPE,
                io.netty.buffer.Unpooled.copiedBuffer(secret.reveal(), java.nio.charset.StandardCharsets.UTF_8));
        if (nodeId != null) {
            io.rsocket.metadata.CompositeMetadataCodec.encodeAndAddMetadata(metadata,
                    io.netty.buffer.ByteBufAllocator.DEFAULT, NodeToken.SETUP_MIME_TYPE,
                    io.netty.buffer.Unpooled.copiedBuffer(NodeToken.setupValue(nodeId, nodeToken),
                            java.nio.charset.StandardCharsets.UTF_8));
        }
        return io.rsocket.util.ByteBufPayload.create(io.netty.buffer.Unpooled.EMPTY_BUFFER, metadata);
    }
}
