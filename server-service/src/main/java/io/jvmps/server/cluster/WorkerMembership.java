package io.jvmps.server.cluster;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.server.consistency.LiveWorkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.BitSet;
import java.util.function.Consumer;

/**
 * Turns the scheduler's cluster views into the live worker set: a rank whose node is DEAD or FINISHED
 * is no longer waited for; a rank taken over by a new ALIVE node is live again. Thread-safe.
 */
public final class WorkerMembership implements Consumer<ClusterView> {
    private static final Logger log = LoggerFactory.getLogger(WorkerMembership.class);

    private final LiveWorkers live;

    /** @param live the set to keep up to date */
    public WorkerMembership(LiveWorkers live) {
        this.live = live;
    }

    @Override
    public void accept(ClusterView view) {
        if (view == null) {
            return;
        }
        BitSet gone = new BitSet();
        for (NodeInfo w : view.workers()) {
            if ((w.state() == NodeState.DEAD || w.state() == NodeState.FINISHED) && w.rank() < live.ranks()) {
                gone.set(w.rank());
            }
        }
        BitSet before = live.live();
        if (live.update(gone)) {
            log.warn("Cluster view epoch {}: live workers {} -> {} (synchronous steps wait only for live workers)",
                    view.epoch(), before, live.live());
        }
    }
}
