package io.jvmps.client.allreduce;

import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.security.ClusterSecret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real AllReduce over RSocket in one JVM: each "worker" is a {@link RingEndpoint} on port 0 with the
 * cluster secret and a {@link RSocketRingLink} to its right neighbour.
 */
class RingEndpointTest {
    private static final ClusterSecret SECRET = ClusterSecret.of("ring-endpoint-test-secret");
    private final List<RingEndpoint> endpoints = new ArrayList<>();
    private final List<RSocketRingLink> links = new ArrayList<>();

    @AfterEach
    void stop() {
        links.forEach(RSocketRingLink::close);
        endpoints.forEach(RingEndpoint::close);
    }

    @Test
    void twoWorkersAverageOverRSocket() throws Exception {
        List<NodeInfo> workers = start(2);
        float[][] out = runAll(workers, new float[][]{{1f, 2f, 3f, -4f, 5.5f}, {3f, 2f, 1f, 4f, 0.5f}}, 1 << 20, 5);
        assertThat(out[0]).containsExactly(2f, 2f, 2f, 0f, 3f);
        assertThat(out[1]).containsExactly(out[0]);
        // 2 (W - 1) / W of the vector per step: one segment out in each phase = 5 floats, over 5 steps
        assertThat(links.get(0).bytesSent()).isEqualTo(5 * 4 * 5L);
    }

    @Test
    void threeWorkersWithMultiChunkSegments() throws Exception {
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
        endpoints.forEach(e -> assertThat(e.mailbox().pending()).isZero());
    }

    @Test
    void aSilentNeighbourIsATimeoutNamingIt() {
        List<NodeInfo> workers = start(2);
        RSocketRingLink link = link(workers, 1, Duration.ofMillis(300), 1 << 20, SECRET);
        assertThatThrownBy(() -> new RingAllReduce(link).average(0, new float[]{1, 2}))
                .isInstanceOf(PsException.class)
                .satisfies(e -> assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("worker 0 (" + workers.get(0).rsocketEndpoint() + ")");
    }

    @Test
    void aWrongSecretIsRefusedAndDeliversNothing() {
        List<NodeInfo> workers = start(2);
        RSocketRingLink link = link(workers, 0, Duration.ofSeconds(5), 1 << 20,
                ClusterSecret.of("another-secret-of-the-wrong-job"));
        assertThatThrownBy(() -> link.send(new RingKey(0, RingPhase.REDUCE_SCATTER, 0), 0, new float[]{1}, 0, 1)
                .await())
                .isInstanceOf(PsException.class)
                .hasMessageContaining("worker 1 (" + workers.get(1).rsocketEndpoint() + ")");
        assertThat(endpoints.get(1).mailbox().pending()).isZero();
    }

    @Test
    void anUnreachableNeighbourFailsClearly() {
        List<NodeInfo> workers = start(2);
        endpoints.get(1).close();
        RSocketRingLink link = link(workers, 0, Duration.ofSeconds(5), 1 << 20, SECRET);
        assertThatThrownBy(() -> link.send(new RingKey(0, RingPhase.REDUCE_SCATTER, 0), 0, new float[]{1}, 0, 1)
                .await())
                .isInstanceOf(PsException.class)
                .hasMessageContaining("worker 1 (" + workers.get(1).rsocketEndpoint() + ")");
    }

    private float[][] runAll(List<NodeInfo> workers, float[][] inputs, int chunkBytes, int steps) throws Exception {
        List<RSocketRingLink> ring = new ArrayList<>();
        for (int r = 0; r < workers.size(); r++) {
            ring.add(link(workers, r, Duration.ofSeconds(10), chunkBytes, SECRET));
        }
        return RingRuns.average(ring, inputs, steps);
    }

    private RSocketRingLink link(List<NodeInfo> workers, int rank, Duration timeout, int chunkBytes,
                                 ClusterSecret secret) {
        RSocketRingLink link = new RSocketRingLink(workers, rank, endpoints.get(rank).mailbox(),
                ConnectionSettings.plain(secret), timeout, chunkBytes);
        links.add(link);
        return link;
    }

    private List<NodeInfo> start(int count) {
        List<NodeInfo> workers = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            RingEndpoint endpoint = RingEndpoint.bind("127.0.0.1", 0, SECRET, Duration.ofSeconds(10));
            endpoints.add(endpoint);
            workers.add(new NodeInfo("worker-" + r, NodeRole.WORKER, r, "127.0.0.1", endpoint.port(), 0,
                    NodeState.ALIVE, 0));
        }
        return workers;
    }
}
