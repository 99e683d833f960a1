package io.jvmps.worker.allreduce;

import io.jvmps.client.allreduce.RSocketRingLink;
import io.jvmps.client.allreduce.RingPhase;
import io.jvmps.client.allreduce.RingKey;
import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.rsocket.RSocketStrategies;
import org.springframework.messaging.rsocket.annotation.support.RSocketMessageHandler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real AllReduce over RSocket in one JVM through the stock worker's endpoint: each "worker" is a Spring
 * RSocket server on port 0 serving {@link AllReduceController} into its own mailbox, and the client
 * library's {@link RSocketRingLink} to its right neighbour.
 */
class RSocketRingAllReduceTest {
    private final RSocketStrategies strategies = RSocketStrategies.create();
    private final List<CloseableChannel> servers = new ArrayList<>();
    private final List<RSocketRingLink> links = new ArrayList<>();
    private final List<AllReduceMailbox> mailboxes = new ArrayList<>();

    @AfterEach
    void stop() {
        links.forEach(RSocketRingLink::close);
        servers.forEach(CloseableChannel::dispose);
    }

    @Test
    void twoWorkersAverageOverRSocket() throws Exception {
        List<NodeInfo> workers = start(2);
        float[][] inputs = {{1f, 2f, 3f, -4f, 5.5f}, {3f, 2f, 1f, 4f, 0.5f}};
        float[][] out = runAll(workers, inputs, 1 << 20, 5);
        assertThat(out[0]).containsExactly(2f, 2f, 2f, 0f, 3f);
        assertThat(out[1]).containsExactly(out[0]);
        // 2 (W - 1) / W of the vector per step: one segment out in each phase = 5 floats, over 5 steps
        assertThat(links.get(0).bytesSent()).isEqualTo(5 * 4 * 5L);
    }

    @Test
    void threeWorkersWithMultiChunkSegmentsOverRSocket() throws Exception {
        List<NodeInfo> workers = start(3);
        int n = 1000;
        float[][] inputs = new float[3][n];
        for (int w = 0; w < 3; w++) {
            for (int i = 0; i < n; i++) {
                inputs[w][i] = (w + 1) * 0.75f * i;
            }
        }
        float[][] out = runAll(workers, inputs, 64, 1);
        for (int i = 0; i < n; i++) {
            assertThat((double) out[0][i]).isCloseTo(1.5 * i, org.assertj.core.data.Offset.offset(1e-3 * (i + 1)));
        }
        assertThat(out[1]).containsExactly(out[0]);
        assertThat(out[2]).containsExactly(out[0]);
        mailboxes.forEach(m -> assertThat(m.pending()).isZero());
    }

    @Test
    void aSilentNeighbourIsATimeoutNamingItsRank() {
        List<NodeInfo> workers = start(2);
        RSocketRingLink link = link(workers, 1, Duration.ofMillis(300), 1 << 20);
        assertThatThrownBy(() -> new RingAllReduce(link).average(0, new float[] {1, 2}))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("worker 0 (" + workers.get(0).rsocketEndpoint() + ")");
    }

    @Test
    void anUnreachableNeighbourFailsClearly() {
        List<NodeInfo> workers = new ArrayList<>(start(2));
        NodeInfo gone = workers.get(1);
        servers.get(1).dispose();
        servers.get(1).onClose().block(Duration.ofSeconds(5));
        RSocketRingLink link = link(workers, 0, Duration.ofSeconds(5), 1 << 20);
        assertThatThrownBy(() -> link.send(new RingKey(0, RingPhase.REDUCE_SCATTER, 0), 0, new float[] {1}, 0, 1)
                .await())
                .isInstanceOf(PsException.class)
                .hasMessageContaining("worker 1 (" + gone.rsocketEndpoint() + ")");
    }

    private float[][] runAll(List<NodeInfo> workers, float[][] inputs, int chunkBytes, int steps) throws Exception {
        List<RSocketRingLink> ring = new ArrayList<>();
        for (int r = 0; r < workers.size(); r++) {
            ring.add(link(workers, r, Duration.ofSeconds(10), chunkBytes));
        }
        return io.jvmps.client.allreduce.RingRuns.average(ring, inputs, steps);
    }

    private RSocketRingLink link(List<NodeInfo> workers, int rank, Duration timeout, int chunkBytes) {
        RSocketRingLink link = new RSocketRingLink(workers, rank, mailboxes.get(rank),
                io.jvmps.client.transport.ConnectionSettings.plain(
                        io.jvmps.common.security.ClusterSecret.of("the-worker-endpoint-test")), timeout, chunkBytes);
        links.add(link);
        return link;
    }

    private List<NodeInfo> start(int count) {
        List<NodeInfo> workers = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            AllReduceMailbox mailbox = new AllReduceMailbox();
            mailboxes.add(mailbox);
            RSocketMessageHandler handler = new RSocketMessageHandler();
            handler.setRSocketStrategies(strategies);
            handler.setHandlers(List.of(new AllReduceController(mailbox)));
            handler.afterPropertiesSet();
            CloseableChannel server = RSocketServer.create(handler.responder())
                    .bind(TcpServerTransport.create("127.0.0.1", 0)).block(Duration.ofSeconds(10));
            servers.add(server);
            workers.add(new NodeInfo("worker-" + r, NodeRole.WORKER, r, "127.0.0.1", server.address().getPort(), 0,
                    NodeState.ALIVE, 0));
        }
        return workers;
    }
}
