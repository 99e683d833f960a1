package io.jvmps.common.embedding;

/**
 * Counters of an {@link EmbeddingCacheManager} since it was created. Lookups count distinct ids per
 * batch: a repeated id in one batch is one lookup.
 *
 * @param hits              ids found resident
 * @param misses            ids not resident (read from the store, or taken from a prefetch)
 * @param prefetched        misses served from a background prefetch instead of a read on the training thread
 * @param evictions         rows given up to make room
 * @param writeBacks        rows written back (evicted dirty rows and flushed rows)
 * @param prefetchWaitNanos time lookups spent waiting for a prefetch to complete
 */
public record CacheStats(long hits, long misses, long prefetched, long evictions, long writeBacks,
                         long prefetchWaitNanos) {

    /** @return hits / (hits + misses), or NaN before any lookup */
    public double hitRate() {
        long lookups = hits + misses;
        return lookups == 0 ? Double.NaN : (double) hits / lookups;
    }
}
