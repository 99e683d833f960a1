package io.jvmps.worker.train.progress;

/**
 * Where the training loops report what they measure, as it happens: the wall time of each pull,
 * compute and push phase and of each whole step, with the step's loss and batch size. Called from
 * the training thread only; implementations must be cheap (they run every step).
 */
public interface TrainingMeters {

    /** The phases of a step. */
    enum Phase { PULL, COMPUTE, PUSH }

    /** Reports nothing. */
    TrainingMeters NONE = new TrainingMeters() {
        @Override
        public void phase(Phase phase, long nanos) {
        }

        @Override
        public void step(long nanos, double loss, int samples) {
        }
    };

    /**
     * @param phase the phase that ended
     * @param nanos its wall time
     */
    void phase(Phase phase, long nanos);

    /**
     * @param nanos   wall time since the previous step ended
     * @param loss    the step's loss
     * @param samples samples in the step's batch
     */
    void step(long nanos, double loss, int samples);

    /**
     * Publishes an embedding cache's counters (hits, misses, evictions, write-backs, prefetch wait), read
     * from {@code stats} whenever they are scraped. Nothing by default.
     *
     * @param table the cached table's name
     * @param stats the cache's counters now; must be safe to call from any thread
     */
    default void embeddingCache(String table, java.util.function.Supplier<io.jvmps.common.embedding.CacheStats> stats) {
    }

    /**
     * Publishes how many bad data rows were left out ({@code ps.worker.dataset.csv.skip-bad-rows}). Nothing by default.
     *
     * @param set  {@code train} or {@code test}
     * @param rows rows left out
     */
    default void skippedRows(String set, long rows) {
    }
}
