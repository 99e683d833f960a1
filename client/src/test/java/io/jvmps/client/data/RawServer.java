package io.jvmps.client.data;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.security.ClusterSecret;

import java.time.Duration;
import java.util.List;

/**
 * A raw RSocket server on a free loopback port, standing in for server rank 0 of 1 in client tests, with the
 * worker's connections to it. Closing closes both.
 */
final class RawServer implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final CloseableChannel channel;
    private final ServerConnections connections;

    private RawServer(CloseableChannel channel) {
        this.channel = channel;
        NodeInfo node = new NodeInfo("raw", NodeRole.SERVER, 0, "127.0.0.1", channel.address().getPort(), 0,
                NodeState.ALIVE, 0);
        this.connections = new ServerConnections(List.of(node),
                ConnectionSettings.plain(ClusterSecret.of("raw-server-test-secret-0123")));
    }

    /** @param acceptor answers the worker's requests */
    static RawServer start(SocketAcceptor acceptor) {
        return new RawServer(RSocketServer.create(acceptor).bind(TcpServerTransport.create("127.0.0.1", 0)).block(WAIT));
    }

    /** @return the worker's connections to this server */
    ServerConnections connections() {
        return connections;
    }

    @Override
    public void close() {
        connections.close();
        channel.dispose();
        channel.onClose().block(WAIT);
    }
}
