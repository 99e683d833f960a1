package io.jvmps.common.embedding;

/**
 * Counters of an {@link EmbeddingCacheManager} since it was created. Hits and misses count distinct ids per
 * batch (a repeated id in one batch is one lookup); positions and position hits count every occurrence.
 *
 * @param hits              ids found resident
 * @param misses            ids not resident (read from the store, or taken from a prefetch)
 * @param prefetched        misses served from a background prefetch instead of a read on the training thread
 * @param evictions         rows given up to make room
 * @param writeBacks        rows written back (evicted dirty rows and flushed rows)
 * @param prefetchWaitNanos time lookups spent waiting for a prefetch to complete
 * @param positions         ids looked up counting repeats (every position of every batch)
 * @param positionHits      positions whose id was resident when its batch was looked up
 */
public record CacheStats(long hits, long misses, long prefetched, long evictions, long writeBacks,
                         long prefetchWaitNanos, long positions, long positionHits) {

    /** Counters of a lookup without a cache: all zero. */
    public static final CacheStats NONE = new CacheStats(0, 0, 0, 0, 0, 0, 0, 0);

    /** @return positionHits / positions: the share of embedding lookups served without the servers, NaN before any */
    public double positionHitRate() {
        return positions == 0 ? Double.NaN : (double) positionHits / positions;
    }

    /** @return the sum of these counters and {@code other}'s (one cache's life across several instances) */
    public CacheStats plus(CacheStats other) {
        return new CacheStats(hits + other.hits, misses + other.misses, prefetched + other.prefetched,
                evictions + other.evictions, writeBacks + other.writeBacks, prefetchWaitNanos + other.prefetchWaitNanos,
                positions + other.positions, positionHits + other.positionHits);
    }

    /** @return hits / (hits + misses), or NaN before any lookup */
    public double hitRate() {
        long lookups = hits + misses;
        return lookups == 0 ? Double.NaN : (double) hits / lookups;
    }
}
