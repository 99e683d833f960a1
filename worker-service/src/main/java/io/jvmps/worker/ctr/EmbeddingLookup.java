package io.jvmps.worker.ctr;

import io.jvmps.common.embedding.CacheStats;

/**
 * The embedding-lookup layer of a SameDiff model (MindSpore's {@code EmbeddingLookup}): gives the rows of
 * a batch's ids as a placeholder's values and sends the gradients of those positions back. Two
 * implementations, chosen by {@code ps.worker.ctr.vocab-cache-size}: {@link DirectLookup} (every step pulls
 * the rows and pushes gradients; the servers' optimizer updates them) and {@link CachedLookup} (rows stay in
 * an embedding cache between steps). One training thread uses it.
 */
public interface EmbeddingLookup extends AutoCloseable {

    /** @return values per row */
    int dim();

    /**
     * @param ids one id per position (repeats allowed)
     * @return the positions' rows, {@code ids.length * dim} floats, row-major
     */
    float[] lookup(long[] ids);

    /** Hints the ids of the next batch, so their rows can be fetched while this one computes. */
    default void prefetch(long[] nextIds) {
    }

    /**
     * Sends the gradients of the positions of the last {@link #lookup}.
     *
     * @param step     the worker's step
     * @param gradient {@code positions * dim} floats
     */
    void update(long step, float[] gradient);

    /** Makes every local change visible on the servers (a cache writes back its dirty rows). */
    void flush();

    /** @return cache counters, or all zeros without a cache */
    CacheStats stats();

    @Override
    void close();
}
