package io.jvmps.common.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterViewTest {

    private static NodeInfo node(NodeRole role, int rank) {
        return new NodeInfo(role.label() + "-" + rank, role, rank, "10.0.0." + rank, role == NodeRole.SERVER ? 7000 + rank : 0,
                8080, NodeState.ALIVE, 1000L + rank);
    }

    @Test
    void sortsNodesByRoleThenRank() {
        List<NodeInfo> shuffled = List.of(node(NodeRole.WORKER, 1), node(NodeRole.SERVER, 2), node(NodeRole.WORKER, 0),
                node(NodeRole.SCHEDULER, 0), node(NodeRole.SERVER, 0), node(NodeRole.SERVER, 1));

        ClusterView view = new ClusterView(4, 3, 2, shuffled);

        assertThat(view.nodes()).extracting(NodeInfo::nodeId)
                .containsExactly("scheduler-0", "server-0", "server-1", "server-2", "worker-0", "worker-1");
    }

    @Test
    void byRoleServersAndWorkersAreOrderedByRank() {
        ClusterView view = new ClusterView(1, 2, 3, List.of(node(NodeRole.WORKER, 2), node(NodeRole.SERVER, 1),
                node(NodeRole.WORKER, 0), node(NodeRole.SERVER, 0), node(NodeRole.WORKER, 1)));

        assertThat(view.servers()).extracting(NodeInfo::rank).containsExactly(0, 1);
        assertThat(view.workers()).extracting(NodeInfo::rank).containsExactly(0, 1, 2);
        assertThat(view.byRole(NodeRole.SERVER)).isEqualTo(view.servers());
        assertThat(view.byRole(NodeRole.SCHEDULER)).isEmpty();
    }

    @Test
    void completeOnlyOnceEveryExpectedServerAndWorkerRegistered() {
        assertThat(new ClusterView(0, 2, 2, List.of()).complete()).isFalse();
        assertThat(new ClusterView(1, 2, 2, List.of(node(NodeRole.SERVER, 0), node(NodeRole.SERVER, 1),
                node(NodeRole.WORKER, 0))).complete()).as("a worker missing").isFalse();
        assertThat(new ClusterView(1, 2, 2, List.of(node(NodeRole.SERVER, 0), node(NodeRole.WORKER, 1),
                node(NodeRole.WORKER, 0))).complete()).as("a server missing").isFalse();
        assertThat(new ClusterView(1, 2, 2, List.of(node(NodeRole.SERVER, 0), node(NodeRole.SERVER, 1),
                node(NodeRole.WORKER, 0), node(NodeRole.WORKER, 1))).complete()).isTrue();
        assertThat(new ClusterView(1, 1, 1, List.of(node(NodeRole.SERVER, 0), node(NodeRole.SERVER, 1),
                node(NodeRole.WORKER, 0))).complete()).as("more than expected").isTrue();
        assertThat(new ClusterView(1, 1, 1, List.of(node(NodeRole.SCHEDULER, 0), node(NodeRole.SERVER, 0)))
                .complete()).as("the scheduler does not count as a worker").isFalse();
    }

    @Test
    void nodeListIsAnImmutableCopy() {
        List<NodeInfo> nodes = new ArrayList<>(List.of(node(NodeRole.SERVER, 0)));
        ClusterView view = new ClusterView(1, 1, 1, nodes);
        nodes.add(node(NodeRole.WORKER, 0));

        assertThat(view.nodes()).hasSize(1);
        assertThatThrownBy(() -> view.nodes().add(node(NodeRole.WORKER, 0)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void nodeInfoCopiesAndEndpoint() {
        NodeInfo server = node(NodeRole.SERVER, 3);

        assertThat(server.rsocketEndpoint()).isEqualTo("10.0.0.3:7003");
        NodeInfo dead = server.withState(NodeState.DEAD);
        assertThat(dead.state()).isEqualTo(NodeState.DEAD);
        assertThat(dead.withState(NodeState.ALIVE)).isEqualTo(server);
        NodeInfo later = server.withHeartbeat(99_000);
        assertThat(later.lastHeartbeatMillis()).isEqualTo(99_000);
        assertThat(later.withHeartbeat(server.lastHeartbeatMillis())).isEqualTo(server);
        assertThat(server.state()).isEqualTo(NodeState.ALIVE);
    }
}
