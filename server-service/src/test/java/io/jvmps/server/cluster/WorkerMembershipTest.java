package io.jvmps.server.cluster;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.server.consistency.LiveWorkers;
import org.junit.jupiter.api.Test;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerMembershipTest {
    private static NodeInfo worker(int rank, String id, NodeState state) {
        return new NodeInfo(id, NodeRole.WORKER, rank, "h", 0, 0, state, 0);
    }

    @Test
    void aDroppedRankStaysDroppedUntilAWorkerJoinsItAndAStaleMarkOfTheOldNodeDoesNotDropTheNewOne() {
        LiveWorkers live = new LiveWorkers(3);
        WorkerMembership membership = new WorkerMembership(live);
        membership.accept(new ClusterView(1, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1", NodeState.ALIVE))));
        assertThat(live.live()).hasToString("{0, 1, 2}"); // rank 2 not registered yet: still expected
        membership.accept(new ClusterView(2, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1", NodeState.DEAD), worker(2, "w2", NodeState.ALIVE))));
        assertThat(live.live()).hasToString("{0, 2}");
        // a restarted scheduler that never saw worker 1, or a new node at rank 1 that has not joined yet
        membership.accept(new ClusterView(1, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1b", NodeState.ALIVE), worker(2, "w2", NodeState.ALIVE))));
        assertThat(live.live()).hasToString("{0, 2}");

        live.join(1, "w1b", 40);
        assertThat(live.live()).hasToString("{0, 1, 2}");
        membership.accept(new ClusterView(2, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1", NodeState.DEAD), worker(2, "w2", NodeState.ALIVE))));
        assertThat(live.live()).as("a late view still showing the replaced node").hasToString("{0, 1, 2}");
        membership.accept(new ClusterView(3, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1b", NodeState.ALIVE), worker(2, "w2", NodeState.FINISHED))));
        assertThat(live.live()).hasToString("{0, 1}");
        membership.accept(new ClusterView(4, 1, 3, List.of(worker(0, "w0", NodeState.ALIVE),
                worker(1, "w1b", NodeState.DEAD))));
        assertThat(live.live()).hasToString("{0}");
    }

    @Test
    void workersThatFinishedAreAnInfoLineAndADeadOneAWarning() {
        // the class's own logger, not the console: what another test did to System.out cannot hide a line here
        Logger logger = (Logger) LoggerFactory.getLogger(WorkerMembership.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            WorkerMembership membership = new WorkerMembership(new LiveWorkers(2));
            membership.accept(new ClusterView(2, 1, 2, List.of(worker(0, "w0", NodeState.ALIVE),
                    worker(1, "w1", NodeState.FINISHED))));
            assertThat(events.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.INFO);
                assertThat(e.getFormattedMessage()).contains("live workers {0, 1} -> {0}");
            });
            membership.accept(new ClusterView(3, 1, 2, List.of(worker(0, "w0", NodeState.DEAD),
                    worker(1, "w1", NodeState.FINISHED))));
            assertThat(events.list).hasSize(2).last().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("live workers {0} -> {}");
            });
        } finally {
            logger.detachAppender(events);
        }
    }
}
