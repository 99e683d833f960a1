package io.jvmps.common.protocol;

/**
 * How servers order the updates of a job's workers (Angel's BSP/SSP/ASP, Paddle's sync/async/GEO).
 * Configured on the servers ({@code ps.consistency.mode}); workers learn it from
 * {@link ServerDescription} and pick their training loop to match.
 */
public enum ConsistencyMode {
    /** BSP: step t of a slice is applied once, from the mean of every worker's gradient for step t. */
    SYNC,
    /** ASP: every push is applied on arrival; nobody waits. */
    ASYNC,
    /** Bounded staleness: pushes are applied on arrival, but a worker may be at most {@code staleness} steps ahead of the slowest. */
    SSP,
    /** GEO-SGD: workers train locally and every {@code geoInterval} steps push parameter deltas, which servers add. */
    GEO
}
