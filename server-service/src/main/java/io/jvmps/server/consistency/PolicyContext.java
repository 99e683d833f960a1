package io.jvmps.server.consistency;

import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.DenseStore;

import java.time.Duration;

/**
 * What a {@link ConsistencyPolicy} is built from. Immutable.
 *
 * @param store       the slices
 * @param optimizer   the update rule (not used by GEO, which adds deltas)
 * @param workers     number of workers of the job ({@code ps.cluster.worker-num})
 * @param pullTimeout deadline of a pull waiting for its slices ({@code ps.server.pull-timeout})
 * @param staleness   SSP bound s: how many steps a worker may be ahead of the slowest
 *                    ({@code ps.consistency.staleness}); ignored by the other modes
 * @param listener    told of every optimizer update (checkpoints); {@link SliceUpdateListener#NONE} if nobody
 * @param liveWorkers the ranks a SYNC step waits for and SSP counts (the scheduler's view drops dead workers)
 */
public record PolicyContext(DenseStore store, Optimizer optimizer, int workers, Duration pullTimeout, int staleness,
                            SliceUpdateListener listener, LiveWorkers liveWorkers) {

    /** A context where every worker stays live. */
    public PolicyContext(DenseStore store, Optimizer optimizer, int workers, Duration pullTimeout, int staleness,
                         SliceUpdateListener listener) {
        this(store, optimizer, workers, pullTimeout, staleness, listener, new LiveWorkers(workers));
    }

    /** A context without a listener. */
    public PolicyContext(DenseStore store, Optimizer optimizer, int workers, Duration pullTimeout, int staleness) {
        this(store, optimizer, workers, pullTimeout, staleness, SliceUpdateListener.NONE);
    }

    /** A context without a staleness bound (SYNC, ASYNC, GEO) or listener. */
    public PolicyContext(DenseStore store, Optimizer optimizer, int workers, Duration pullTimeout) {
        this(store, optimizer, workers, pullTimeout, 0);
    }
}
