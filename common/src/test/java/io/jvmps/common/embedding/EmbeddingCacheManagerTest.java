package io.jvmps.common.embedding;

import org.junit.jupiter.api.Test;

import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class EmbeddingCacheManagerTest {
    private static final int DIM = 3;
    private final MapRowStore store = new MapRowStore(DIM);

    private EmbeddingCacheManager cache(int capacity, EvictionPolicy policy) {
        return new EmbeddingCacheManager(DIM, capacity, policy, store, Runnable::run);
    }

    @Test
    void deduplicatesABatchAndReadsMissesInOneCall() {
        EmbeddingCacheManager cache = cache(8, EvictionPolicy.LRU);
        EmbeddingCacheManager.Batch batch = cache.lookup(new long[] {5, 7, 5, 9, 7});

        assertThat(store.reads).hasSize(1);
        assertThat(store.reads.get(0)).containsExactly(5, 7, 9);
        float[] out = new float[5 * DIM];
        batch.gather(out);
        assertThat(slice(out, 0)).containsExactly(store.row(5));
        assertThat(slice(out, 2)).containsExactly(store.row(5));
        assertThat(slice(out, 4)).containsExactly(store.row(7));
        assertThat(cache.stats()).isEqualTo(new CacheStats(0, 3, 0, 0, 0, 0, 5, 0));

        cache.lookup(new long[] {9, 5, 11});
        assertThat(cache.stats().hits()).isEqualTo(2);
        assertThat(cache.stats().misses()).isEqualTo(4);
        assertThat(cache.stats().positionHitRate()).isEqualTo(2.0 / 8);
        assertThat(store.reads.get(1)).containsExactly(11);
    }

    @Test
    void lruEvictsTheLeastRecentlyUsedButNeverTheCurrentBatch() {
        EmbeddingCacheManager cache = cache(3, EvictionPolicy.LRU);
        cache.lookup(new long[] {1, 2, 3});
        cache.lookup(new long[] {1});
        cache.lookup(new long[] {3, 4});          // 2 is the least recent and not in the batch

        assertThat(cache.contains(2)).isFalse();
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.contains(3)).isTrue();
        assertThat(cache.contains(4)).isTrue();

        cache.lookup(new long[] {5, 6, 4});       // 1 and 3 go; 4 is pinned although older than nothing else
        assertThat(cache.contains(4)).isTrue();
        assertThat(cache.contains(1)).isFalse();
        assertThat(cache.contains(3)).isFalse();
        assertThat(cache.stats().evictions()).isEqualTo(3);
    }

    @Test
    void lfuKeepsTheFrequentlyUsedRow() {
        EmbeddingCacheManager cache = cache(2, EvictionPolicy.LFU);
        for (int i = 0; i < 5; i++) {
            cache.lookup(new long[] {1});
        }
        cache.lookup(new long[] {2});
        cache.lookup(new long[] {3});           // 2 (used once) goes although 1 is less recent
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.contains(2)).isFalse();
        cache.lookup(new long[] {4, 3});        // 3 is pinned, 1 is the only candidate
        assertThat(cache.contains(1)).isFalse();
        assertThat(cache.contains(3)).isTrue();
    }

    @Test
    void dirtyRowsAreWrittenBackOnEvictionAndFlushCleanOnesAreNot() {
        EmbeddingCacheManager cache = cache(2, EvictionPolicy.LRU);
        float[] before = store.row(1).clone();
        EmbeddingCacheManager.Batch batch = cache.lookup(new long[] {1, 2});
        batch.add(0, new float[] {1, 1, 1}, 0);
        cache.lookup(new long[] {3, 4});        // evicts 1 (dirty) and 2 (clean)

        assertThat(store.writes).hasSize(1);
        assertThat(store.writes.get(0)).containsExactly(1);
        assertThat(store.row(1)[0]).isCloseTo(before[0] + 1, within(1e-6f));
        assertThat(cache.stats().writeBacks()).isEqualTo(1);

        cache.lookup(new long[] {3}).add(0, new float[] {0, 2, 0}, 0);
        cache.close();
        assertThat(store.writes).hasSize(2);
        assertThat(store.writes.get(1)).containsExactly(3);
        cache.flush();
        assertThat(store.writes).as("a flushed row is clean until changed again").hasSize(2);
    }

    @Test
    void addToAllScalesEveryPositionsRowsAndARepeatedIdReceivesEach() {
        EmbeddingCacheManager cache = cache(4, EvictionPolicy.LRU);
        float[] five = store.row(5).clone();
        float[] seven = store.row(7).clone();
        EmbeddingCacheManager.Batch batch = cache.lookup(new long[] {5, 7, 5});
        batch.addToAll(-0.5f, new float[] {2, 2, 2, 4, 4, 4, 6, 6, 6});
        float[] out = new float[3 * DIM];
        batch.gather(out);
        assertThat(out[0]).isCloseTo(five[0] - 1 - 3, within(1e-6f));
        assertThat(out[DIM]).isCloseTo(seven[0] - 2, within(1e-6f));
        assertThatThrownBy(() -> batch.addToAll(1f, new float[8])).hasMessageContaining("8 values for 3 rows of dim 3");
        cache.close();
        assertThat(store.writes.get(0)).containsExactlyInAnyOrder(5, 7);
    }

    @Test
    void evictedRowsAreWrittenBackTogetherAndARowMissedWhileWaitingKeepsItsChange() {
        EmbeddingCacheManager cache = new EmbeddingCacheManager(DIM, 2, EvictionPolicy.LRU, store, Runnable::run, 3);
        float[] one = store.row(1).clone();
        float[] two = store.row(2).clone();
        cache.lookup(new long[] {1, 2}).addToAll(1f, new float[] {1, 1, 1, 2, 2, 2});
        cache.lookup(new long[] {3, 4}).addToAll(1f, new float[2 * DIM]);     // evicts 1 and 2: both wait
        assertThat(store.writes).as("two evicted rows wait for a third").isEmpty();

        EmbeddingCacheManager.Batch back = cache.lookup(new long[] {1, 5}); // 1 comes back; 2, 3, 4 are sent
        assertThat(store.reads.stream().flatMapToLong(java.util.Arrays::stream)).as("1 is not read again")
                .containsOnlyOnce(1L);
        float[] out = new float[2 * DIM];
        back.gather(out);
        assertThat(out[0]).isCloseTo(one[0] + 1, within(1e-6f));
        back.add(0, new float[] {10, 10, 10}, 0);                           // 1 changes again
        cache.lookup(new long[] {6, 7});                                    // evicts 1 (waits) and 5 (clean)
        assertThat(store.writes).as("one call for the rows gathered").hasSize(1);
        assertThat(store.row(2)[0]).isCloseTo(two[0] + 2, within(1e-6f));

        cache.close();
        assertThat(store.row(1)[0]).as("both changes of 1 reached the store, once each")
                .isCloseTo(one[0] + 11, within(1e-6f));
        assertThat(cache.stats().writeBacks()).isEqualTo(store.writes.stream().mapToLong(w -> w.length).sum());
    }

    @Test
    void badSizesAreRefusedClearly() {
        assertThatThrownBy(() -> new EmbeddingCacheManager(-1, 4, EvictionPolicy.LRU, store, Runnable::run, 8))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dim=-1");
        assertThatThrownBy(() -> new EmbeddingCacheManager(DIM, 4, EvictionPolicy.LRU, store, Runnable::run, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("writeBackRows must be >= 1, got 0");
    }

    @Test
    void aBatchLargerThanTheCacheIsRefusedClearly() {
        EmbeddingCacheManager cache = cache(2, EvictionPolicy.LRU);
        assertThatThrownBy(() -> cache.lookup(new long[] {1, 2, 3, 1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 distinct ids").hasMessageContaining("vocab_cache_size is 2");
        assertThat(store.reads).isEmpty();
    }

    @Test
    void prefetchedRowsAreUsedWithoutAReadOnTheTrainingThread() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            EmbeddingCacheManager cache = new EmbeddingCacheManager(DIM, 4, EvictionPolicy.LRU, store, pool);
            cache.lookup(new long[] {1, 2});
            cache.prefetch(new long[] {2, 3, 4});
            EmbeddingCacheManager.Batch batch = cache.lookup(new long[] {2, 3, 4});

            assertThat(store.reads).hasSize(2);
            assertThat(store.reads.get(1)).containsExactly(3, 4);
            assertThat(cache.stats().prefetched()).isEqualTo(2);
            assertThat(cache.stats().hits()).isEqualTo(1);
            float[] out = new float[3 * DIM];
            batch.gather(out);
            assertThat(slice(out, 2)).containsExactly(store.row(4));

            cache.prefetch(new long[] {9});
            cache.lookup(new long[] {8});         // the prefetch was for another batch: 8 is read now
            assertThat(cache.stats().prefetched()).isEqualTo(2);
            assertThat(store.reads.get(store.reads.size() - 1)).containsExactly(8);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The property the worker relies on: with additive updates, training through a small cache (with
     * evictions, write-backs and prefetches) leaves the same table as applying every update to the
     * store directly.
     */
    @Test
    void trainingThroughTheCacheLeavesTheSameTableAsWithoutIt() throws Exception {
        MapRowStore direct = new MapRowStore(DIM);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (EmbeddingCacheManager cache = new EmbeddingCacheManager(DIM, 16, EvictionPolicy.LFU, store, pool)) {
            Random random = new Random(7);
            long[] next = batch(random);
            for (int step = 0; step < 300; step++) {
                long[] ids = next;
                next = batch(random);
                EmbeddingCacheManager.Batch batch = cache.lookup(ids);
                cache.prefetch(next);
                for (int i = 0; i < ids.length; i++) {
                    float[] delta = {random.nextFloat() - 0.5f, random.nextFloat() - 0.5f, 0.01f * step};
                    batch.add(i, delta, 0);
                    float[] row = direct.row(ids[i]);
                    for (int k = 0; k < DIM; k++) {
                        row[k] += delta[k];
                    }
                }
            }
            assertThat(cache.stats().evictions()).isPositive();
            assertThat(cache.stats().prefetched()).isPositive();
        } finally {
            pool.shutdownNow();
        }
        assertThat(store.rows.keySet()).isEqualTo(direct.rows.keySet());
        for (long id : direct.rows.keySet()) {
            float[] expected = direct.row(id);
            float[] actual = store.row(id);
            for (int k = 0; k < DIM; k++) {
                assertThat(actual[k]).as("row " + id).isCloseTo(expected[k], within(1e-4f));
            }
        }
    }

    private static long[] batch(Random random) {
        long[] ids = new long[8];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = (long) Math.floor(Math.pow(random.nextDouble(), 3) * 64);  // skewed towards small ids
        }
        return ids;
    }

    private static float[] slice(float[] rows, int position) {
        return java.util.Arrays.copyOfRange(rows, position * DIM, position * DIM + DIM);
    }

    @Test
    void aReadAfterAnEvictionSeesTheRowsWriteBackAndStoreFailuresSurface() throws Exception {
        java.util.Map<Long, float[]> rows = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean failWrites = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CountDownLatch firstWriteMayEnd = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger writesEnded = new java.util.concurrent.atomic.AtomicInteger();
        RowStore slowStore = new RowStore() {
            @Override
            public void read(long[] ids, float[] out) {
                for (int i = 0; i < ids.length; i++) {
                    System.arraycopy(rows.computeIfAbsent(ids[i], id -> new float[DIM]), 0, out, i * DIM, DIM);
                }
            }

            @Override
            public void writeBack(long[] ids, float[] current, float[] base) {
                try { // the first write-back ends when the test lets it (or after 10 s); later ones are slow
                    firstWriteMayEnd.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L); // a slow network
                writesEnded.incrementAndGet();
                if (failWrites.get()) {
                    throw new IllegalStateException("server 1 is gone");
                }
                for (int i = 0; i < ids.length; i++) {
                    for (int k = 0; k < DIM; k++) {
                        rows.get(ids[i])[k] += current[i * DIM + k] - base[i * DIM + k];
                    }
                }
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            EmbeddingCacheManager cache = new EmbeddingCacheManager(DIM, 1, EvictionPolicy.LRU, slowStore, pool);
            float[] delta = new float[DIM];
            java.util.Arrays.fill(delta, 1f);
            cache.lookup(new long[] {1}).add(0, delta, 0);
            cache.lookup(new long[] {2});                 // evicts dirty row 1: written back in the background
            assertThat(writesEnded.get()).as("the eviction did not wait for the write").isZero();
            firstWriteMayEnd.countDown();
            float[] out = new float[DIM];
            cache.lookup(new long[] {1}).gather(out);     // the read of 1 runs after its write-back
            assertThat(out).containsOnly(1f);

            failWrites.set(true);
            cache.lookup(new long[] {1}).add(0, delta, 0);
            cache.lookup(new long[] {3});                 // the write-back of 1 fails in the background
            assertThatThrownBy(() -> cache.lookup(new long[] {4})).hasMessageContaining("server 1 is gone");
        } finally {
            pool.shutdownNow();
        }
    }
}
