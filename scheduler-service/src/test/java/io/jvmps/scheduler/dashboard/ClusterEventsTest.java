package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterEventsTest {
    private static final NodeInfo SERVER = new NodeInfo("server-0-aaaa", NodeRole.SERVER, 0, "10.0.0.1", 7000, 8080,
            NodeState.ALIVE, 0);
    private static final NodeInfo WORKER = new NodeInfo("worker-0-bbbb", NodeRole.WORKER, 0, "10.0.0.2", 0, 8080,
            NodeState.ALIVE, 0);

    @Test
    void reportsJoinsStateChangesAndJobChangesOnceEachNewestFirst() {
        ClusterEvents events = new ClusterEvents(10);
        events.observe(view(SERVER), "WAITING", "", 1);
        events.observe(view(SERVER), "WAITING", "", 2);
        events.observe(view(SERVER, WORKER), "RUNNING", "", 3);
        events.observe(view(SERVER, WORKER.withState(NodeState.DEAD)), "RUNNING", "", 4);
        events.observe(view(SERVER, WORKER.withState(NodeState.DEAD)), "FINISHED", "test accuracy 91.00% (91/100)", 5);

        assertThat(events.recent()).extracting(ClusterEvent::message).containsExactly(
                "job FINISHED: test accuracy 91.00% (91/100)",
                "worker rank 0 (worker-0-bbbb) is DEAD",
                "job RUNNING",
                "worker rank 0 (worker-0-bbbb) joined from 10.0.0.2",
                "job WAITING",
                "server rank 0 (server-0-aaaa) joined from 10.0.0.1:7000");
        assertThat(events.recent().get(1).kind()).isEqualTo("DEAD");
        assertThat(events.recent().get(0).timeMillis()).isEqualTo(5);
    }

    @Test
    void keepsOnlyTheNewestEvents() {
        ClusterEvents events = new ClusterEvents(2);
        events.observe(view(SERVER, WORKER), "RUNNING", "", 1);
        assertThat(events.recent()).hasSize(2).extracting(ClusterEvent::kind).containsExactly("JOB", "JOINED");
    }

    private static ClusterView view(NodeInfo... nodes) {
        return new ClusterView(1, 1, 1, List.of(nodes));
    }
}
