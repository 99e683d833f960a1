package io.jvmps.worker.train.progress;

import io.jvmps.common.embedding.CacheStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Map;

/**
 * Logs each embedding cache's counters after a fit, finished or stopped: {@code Embedding cache <table>: hit rate H
 * (h hits, m misses, p prefetched), e evictions, w write-backs, prefetch wait S s; lookup hit rate L (x of y
 * lookups)}, one line per table that saw a lookup. Stateless.
 */
public final class CacheLog {
    private static final Logger log = LoggerFactory.getLogger(CacheLog.class);

    private CacheLog() {
    }

    /** @param byTable each cached table's counters, by table */
    public static void log(Map<String, CacheStats> byTable) {
        byTable.forEach((table, stats) -> {
            if (stats.hits() + stats.misses() == 0) {
                return;
            }
            log.info(String.format(Locale.ROOT, "Embedding cache %s: hit rate %.4f (%d hits, %d misses, %d "
                            + "prefetched), %d evictions, %d write-backs, prefetch wait %.2f s; lookup hit rate %.4f "
                            + "(%d of %d lookups)", table, stats.hitRate(), stats.hits(), stats.misses(),
                    stats.prefetched(), stats.evictions(), stats.writeBacks(), stats.prefetchWaitNanos() / 1e9,
                    stats.positionHitRate(), stats.positionHits(), stats.positions()));
        });
    }
}
