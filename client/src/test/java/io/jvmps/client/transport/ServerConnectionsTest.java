package io.jvmps.client.transport;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.SetupSecretInterceptor;
import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.core.RSocketServer;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The client's connections against a raw RSocket server that checks the cluster secret the way every jvm-ps
 * node does: the SETUP frame the library writes passes the check, JSON control calls arrive with their route
 * and their answers decode, and a server's coded error or a refused secret comes back as a {@link PsException}
 * with that code, naming the server and route.
 */
class ServerConnectionsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ClusterSecret SECRET = ClusterSecret.of("connections-test-secret-0123456789");

    private CloseableChannel channel;

    @BeforeEach
    void start() {
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                try {
                    String route = route(payload.metadata());
                    return switch (route) {
                        case "test.echo-rank" -> Mono.just(DefaultPayload.create(
                                "{\"rank\":" + payload.getDataUtf8().replaceAll(".*\"rank\":(\\d+).*", "$1")
                                        + ",\"extra\":\"ignored\"}"));
                        case "test.fail" -> Mono.error(new ApplicationErrorException("[WRONG_STEP] step 3 is over"));
                        default -> Mono.just(DefaultPayload.create("\"ok\""));
                    };
                } finally {
                    payload.release();
                }
            }
        };
        channel = RSocketServer.create((setup, sending) -> Mono.just(handler))
                .interceptors(r -> r.forSocketAcceptor(new SetupSecretInterceptor(SECRET, "application/json")))
                .bind(TcpServerTransport.create("127.0.0.1", 0)).block(WAIT);
    }

    @AfterEach
    void stop() {
        channel.dispose();
        channel.onClose().block(WAIT);
    }

    private static String route(ByteBuf metadata) {
        for (CompositeMetadata.Entry entry : new CompositeMetadata(metadata, false)) {
            if (WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString().equals(entry.getMimeType())) {
                return new RoutingMetadata(entry.getContent()).iterator().next();
            }
        }
        return "";
    }

    private ServerConnections connect(ClusterSecret secret) {
        NodeInfo node = new NodeInfo("server-0", NodeRole.SERVER, 0, "127.0.0.1", channel.address().getPort(), 0,
                NodeState.ALIVE, 0);
        return new ServerConnections(List.of(node), ConnectionSettings.plain(secret));
    }

    /** What the test server answers on {@code test.echo-rank}: a field it adds is ignored. */
    record Echo(int rank) {
    }

    @Test
    void jsonCallsReachTheirRouteAndDecodeThroughTheSecretCheck() {
        try (ServerConnections connections = connect(SECRET)) {
            assertThat(connections.probe(WAIT)).isEmpty();
            List<Echo> answers = connections.callAll("test.echo-rank", new JoinRequest(7, "worker-7", 3), Echo.class,
                    WAIT);
            assertThat(answers).containsExactly(new Echo(7));
            assertThat(connections.callAll("test.other", null, String.class, WAIT)).containsExactly("\"ok\"");
        }
    }

    @Test
    void aServersErrorKeepsItsCodeAndNamesServerAndRoute() {
        try (ServerConnections connections = connect(SECRET)) {
            assertThatThrownBy(() -> connections.callAll("test.fail", null, String.class, WAIT))
                    .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.WRONG_STEP))
                    .hasMessageContaining("server 0 (127.0.0.1:" + channel.address().getPort() + ") on test.fail")
                    .hasMessageContaining("step 3 is over");
        }
    }

    @Test
    void aWrongSecretIsRefusedAsUnauthenticated() {
        try (ServerConnections connections = connect(ClusterSecret.of("not-the-cluster-secret-0123456"))) {
            assertThatThrownBy(() -> connections.probe(WAIT))
                    .isInstanceOfSatisfying(PsException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED))
                    .hasMessageContaining("wrong cluster secret");
            assertThatThrownBy(() -> connections.callAll("test.other", null, String.class, WAIT))
                    .isInstanceOfSatisfying(PsException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED));
        }
    }
}
