package io.jvmps.server.cluster;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.server.consistency.LiveWorkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns the scheduler's cluster views into the live worker set: a rank whose node is DEAD or FINISHED
 * is no longer waited for, and stays so (also when a restarted scheduler no longer lists it) until a
 * worker joins at that rank again ({@link LiveWorkers#join}). A DEAD or FINISHED mark of an older node
 * does not drop the node that joined after it. Thread-safe.
 */
public final class WorkerMembership implements Consumer<ClusterView> {
    private static final Logger log = LoggerFactory.getLogger(WorkerMembership.class);

    private final LiveWorkers live;

    /** @param live the set to keep up to date */
    public WorkerMembership(LiveWorkers live) {
        this.live = live;
    }

    @Override
    public synchronized void accept(ClusterView view) {
        if (view == null) {
            return;
        }
        BitSet before = live.live();
        Map<Integer, String> leaving = new HashMap<>();
        boolean anyDead = false;
        for (NodeInfo w : view.workers()) {
            if (w.state() == NodeState.DEAD || w.state() == NodeState.FINISHED) {
                leaving.put(w.rank(), w.nodeId());
                anyDead |= w.state() == NodeState.DEAD;
            }
        }
        if (live.drop(leaving)) {
            // a worker that finished its job is the normal end, not something for an operator to look at
            String line = "Cluster view epoch {}: live workers {} -> {} (SYNC steps, SSP bounds and GEO final pulls "
                    + "wait only for live workers)";
            if (anyDead) {
                log.warn(line, view.epoch(), before, live.live());
            } else {
                log.info(line, view.epoch(), before, live.live());
            }
        }
    }
}
