package io.jvmps.worker.ctr;

import io.jvmps.common.embedding.CacheStats;
import io.jvmps.common.embedding.EmbeddingCacheManager;

/**
 * Lookup through an {@link EmbeddingCacheManager}: rows stay on the worker between steps and are trained
 * there by plain SGD at {@code learningRate} ({@code row -= lr * gradient}, repeated ids receiving every
 * position's gradient); the cache writes a row's change back to the servers when it evicts or flushes it
 * (the GEO-SGD treatment of sparse tables). With one worker and SGD on the servers at the same rate,
 * the final table equals the one {@link DirectLookup} trains.
 */
public final class CachedLookup implements EmbeddingLookup {
    private final EmbeddingCacheManager cache;
    private final float learningRate;
    private EmbeddingCacheManager.Batch last;

    /**
     * @param cache        the table's cache
     * @param learningRate rate of the local SGD on cached rows
     */
    public CachedLookup(EmbeddingCacheManager cache, float learningRate) {
        this.cache = cache;
        this.learningRate = learningRate;
    }

    @Override
    public int dim() {
        return cache.dim();
    }

    @Override
    public float[] lookup(long[] ids) {
        last = cache.lookup(ids);
        float[] out = new float[ids.length * cache.dim()];
        last.gather(out);
        return out;
    }

    @Override
    public void prefetch(long[] nextIds) {
        cache.prefetch(nextIds);
    }

    @Override
    public void update(long step, float[] gradient) {
        last.addToAll(-learningRate, gradient);
    }

    @Override
    public void flush() {
        cache.flush();
    }

    @Override
    public CacheStats stats() {
        return cache.stats();
    }

    @Override
    public void close() {
        cache.close();
    }
}
