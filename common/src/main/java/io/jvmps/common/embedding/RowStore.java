package io.jvmps.common.embedding;

/**
 * Where an {@link EmbeddingCacheManager} reads rows it does not hold and writes back rows it changed:
 * in a job, the servers' sparse table. Rows are {@code dim} float32 values, row-major.
 * {@link #read} may be called from the cache's prefetch thread while the training thread calls
 * {@link #writeBack}, so implementations must be thread-safe.
 */
public interface RowStore {

    /**
     * Reads rows.
     *
     * @param ids distinct row ids
     * @param out receives {@code ids.length * dim} floats, row {@code i} at {@code i * dim}
     */
    void read(long[] ids, float[] out);

    /**
     * Writes back rows the cache changed, when they are evicted or flushed.
     *
     * @param ids     distinct row ids
     * @param current the rows' values now, {@code ids.length * dim} floats
     * @param base    the values the rows had when the cache read (or last wrote back) them, same layout;
     *                {@code current - base} is what changed locally
     */
    void writeBack(long[] ids, float[] current, float[] base);
}
