package io.jvmps.client.control;

import io.jvmps.common.protocol.ConsistencyMode;

/**
 * How many updates one dense slice sees over a job, which a worker tells the servers when it declares the model
 * ({@link ControlClient#declareDense(java.util.List, long)}) so that a cosine learning-rate schedule without
 * {@code ps.optimizer.total-steps} spans the job: in SYNC the servers apply one aggregated update per step; in
 * ASYNC and SSP every worker's push is an update of its own; GEO adds deltas without the servers' optimizer.
 */
public final class JobUpdates {
    private JobUpdates() {
    }

    /**
     * @param mode           the servers' consistency mode
     * @param stepsPerWorker steps (pushes) each worker runs over the whole job, &gt;= 0
     * @param workers        workers of the job ({@code ps.cluster.worker-num}), &gt;= 1
     * @return the job's updates per slice; 0 in GEO (no schedule runs on the servers)
     */
    public static long of(ConsistencyMode mode, long stepsPerWorker, int workers) {
        return switch (mode) {
            case SYNC -> stepsPerWorker;
            case ASYNC, SSP -> stepsPerWorker * Math.max(1, workers);
            case GEO -> 0;
        };
    }
}
