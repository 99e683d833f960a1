package io.jvmps.worker.ctr;

import io.jvmps.common.embedding.EmbeddingCacheManager;
import io.jvmps.common.embedding.EvictionPolicy;
import io.jvmps.common.embedding.RowStore;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The cached lookup applies {@code row -= lr * gradient} per position on the worker and writes the change
 * back, so a store that only ever receives deltas ends where per-step SGD on the store would.
 */
class CachedLookupTest {

    @Test
    void localSgdWrittenBackEqualsSgdOnTheStore() {
        Map<Long, float[]> store = new HashMap<>();
        RowStore rows = new RowStore() {
            @Override
            public void read(long[] ids, float[] out) {
                for (int i = 0; i < ids.length; i++) {
                    out[2 * i] = store.computeIfAbsent(ids[i], id -> new float[] {id, -id})[0];
                    out[2 * i + 1] = store.get(ids[i])[1];
                }
            }

            @Override
            public void writeBack(long[] ids, float[] current, float[] base) {
                for (int i = 0; i < ids.length; i++) {
                    store.get(ids[i])[0] += current[2 * i] - base[2 * i];
                    store.get(ids[i])[1] += current[2 * i + 1] - base[2 * i + 1];
                }
            }
        };
        try (CachedLookup lookup = new CachedLookup(new EmbeddingCacheManager(2, 2, EvictionPolicy.LRU, rows,
                Runnable::run), 0.5f)) {
            float[] first = lookup.lookup(new long[] {1, 1, 2});
            assertThat(first).containsExactly(1, -1, 1, -1, 2, -2);
            lookup.update(0, new float[] {1, 1, 1, 1, 2, 2});
            lookup.lookup(new long[] {3});
            lookup.update(1, new float[] {4, 4});
            lookup.flush();
        }
        // id 1: two positions, 1 - 0.5*(1+1) = 0; id 2: 2 - 0.5*2 = 1; id 3: 3 - 0.5*4 = 1
        assertThat(store.get(1L)[0]).isCloseTo(0f, within(1e-6f));
        assertThat(store.get(1L)[1]).isCloseTo(-2f, within(1e-6f));
        assertThat(store.get(2L)[0]).isCloseTo(1f, within(1e-6f));
        assertThat(store.get(3L)[1]).isCloseTo(-5f, within(1e-6f));
    }
}
