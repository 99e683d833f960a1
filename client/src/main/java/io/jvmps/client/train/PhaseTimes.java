package io.jvmps.client.train;

/**
 * Where a fit's wall time went, summed over its steps on monotonic time: reading parameters (dense pulls, which in
 * SYNC and SSP include the wait for the other workers, and table rows), computing the graph's loss and gradients,
 * and sending (row and dense pushes). What is left of the fit's time is the data and the bookkeeping. Not
 * thread-safe: the training thread's.
 */
final class PhaseTimes {
    private long pullNanos;
    private long computeNanos;
    private long pushNanos;
    private long mark = System.nanoTime();

    /** Starts timing a phase. */
    void start() {
        mark = System.nanoTime();
    }

    /** Ends a pull phase (started by {@link #start}) and starts the next. */
    void pulled() {
        pullNanos += lap();
    }

    /** Ends a compute phase and starts the next. */
    void computed() {
        computeNanos += lap();
    }

    /** Ends a push phase and starts the next. */
    void pushed() {
        pushNanos += lap();
    }

    private long lap() {
        long now = System.nanoTime();
        long took = now - mark;
        mark = now;
        return took;
    }

    /** @return the sums, in seconds, for a {@link SameDiffTrainer.Result} */
    SameDiffTrainer.Phases seconds() {
        return new SameDiffTrainer.Phases(pullNanos / 1e9, computeNanos / 1e9, pushNanos / 1e9);
    }
}
