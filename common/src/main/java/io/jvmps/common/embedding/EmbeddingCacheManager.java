package io.jvmps.common.embedding;

import io.jvmps.common.sparse.DistinctIds;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * A worker's cache of one embedding table (MindSpore's {@code vocab_cache_size}): at most
 * {@code capacity} rows of {@code dim} float32 values, in slots of two flat arrays (current values and
 * the values as read), found through a primitive id-to-slot map.
 *
 * <p>{@link #lookup} takes one batch's ids: it deduplicates them, keeps resident rows (hits), reads
 * the missing ones from the {@link RowStore} in one call (or takes them from a {@link #prefetch}
 * started while the previous batch computed), and makes room by evicting rows chosen by the
 * {@link EvictionPolicy}. Rows of the current batch are pinned until the next lookup and are never
 * evicted. Rows changed through {@link Batch#add} are dirty; an evicted dirty row waits with other
 * evicted rows until {@code writeBackRows} of them are gathered, and they go back to the store in one
 * call (a row missed again while it waits is taken back from there, never read from the store, which
 * does not have its change yet). {@link #flush} writes back every dirty and waiting row (call it when
 * training ends; {@link #close} does).
 *
 * <p>Threading: one training thread calls everything. Every call into the {@link RowStore} runs on the
 * given executor, chained one after another in the order the training thread issued them ({@link StoreCalls}),
 * so a read of a row always follows the write-back of its earlier eviction: write-backs of evicted rows do not
 * hold the training thread up; a read it needs now (a miss no prefetch covered) waits for the writes before it.
 * A failed store call fails the next lookup or flush. Not thread-safe otherwise.
 *
 * <p>The parts: {@link CacheSlots} holds the rows and picks victims, {@link PendingWriteBacks} gathers evicted
 * dirty rows, {@link StoreCalls} orders the store calls, {@link PrefetchedRows} holds a prefetch; this class
 * deduplicates a batch and decides where each row comes from.
 */
public final class EmbeddingCacheManager implements AutoCloseable {
    private final int dim;
    private final int capacity;
    private final RowStore store;
    private final CacheSlots slots;
    private final PendingWriteBacks pending;
    private final StoreCalls calls;
    private final int writeBackRows;
    private long batch;
    private CompletableFuture<PrefetchedRows> prefetch;
    private long positions;
    private long positionHits;
    private long hits;
    private long misses;
    private long prefetched;
    private long writeBacks;
    private long prefetchWaitNanos;

    /**
     * @param dim              values per row, >= 1
     * @param capacity         most rows held ({@code vocab_cache_size}), >= 1
     * @param policy           which row to evict
     * @param store            where rows come from and go back to
     * @param prefetchExecutor runs the store calls (prefetch and miss reads, write-backs) off the training thread
     */
    public EmbeddingCacheManager(int dim, int capacity, EvictionPolicy policy, RowStore store, Executor prefetchExecutor) {
        this(dim, capacity, policy, store, prefetchExecutor, 1);
    }

    /**
     * @param writeBackRows evicted dirty rows gathered before they are written back in one store call, >= 1
     *                      (1: each lookup writes back what it evicted)
     * @see #EmbeddingCacheManager(int, int, EvictionPolicy, RowStore, Executor)
     */
    public EmbeddingCacheManager(int dim, int capacity, EvictionPolicy policy, RowStore store, Executor prefetchExecutor,
                                 int writeBackRows) {
        if (writeBackRows < 1) {
            throw new IllegalArgumentException("writeBackRows must be >= 1, got " + writeBackRows);
        }
        if (dim < 1 || capacity < 1) {
            throw new IllegalArgumentException("dim and vocab_cache_size must be >= 1, got dim=" + dim
                    + " capacity=" + capacity);
        }
        this.writeBackRows = writeBackRows;
        this.pending = new PendingWriteBacks(dim);
        this.slots = new CacheSlots(dim, capacity, policy);
        this.dim = dim;
        this.capacity = capacity;
        this.store = store;
        this.calls = new StoreCalls(prefetchExecutor);
    }

    /**
     * Makes every id of a batch resident and pins them until the next lookup.
     *
     * @param ids the batch's ids, repeats allowed
     * @return the batch: each position's slot, and access to the rows
     * @throws IllegalArgumentException if the batch has more distinct ids than the cache has slots
     */
    public Batch lookup(long[] ids) {
        batch++;
        DistinctIds distinct = DistinctIds.of(ids);
        long[] unique = distinct.ids();
        if (unique.length > capacity) {
            throw new IllegalArgumentException("a batch has " + unique.length + " distinct ids but vocab_cache_size is "
                    + capacity + "; raise vocab_cache_size or lower the batch size");
        }
        calls.failIfFailed();
        PrefetchedRows ready = awaitPrefetch();
        long[] missing = new long[unique.length];
        int missingCount = 0;
        boolean[] hit = new boolean[unique.length];
        for (int u = 0; u < unique.length; u++) {
            long slot = slots.slotOf(unique[u]);
            if (slot != CacheSlots.ABSENT) {
                hits++;
                hit[u] = true;
                slots.pin((int) slot, batch);
            } else {
                missing[missingCount++] = unique[u];
            }
        }
        misses += missingCount;
        positions += ids.length;
        for (int u : distinct.indexOf()) {
            if (hit[u]) {
                positionHits++;
            }
        }
        if (missingCount > 0) {
            load(Arrays.copyOf(missing, missingCount), ready);
        }
        int[] slotOfUnique = new int[unique.length];
        for (int u = 0; u < unique.length; u++) {
            slotOfUnique[u] = (int) slots.slotOf(unique[u]);
        }
        int[] positionSlots = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            positionSlots[i] = slotOfUnique[distinct.indexOf()[i]];
        }
        return new Batch(positionSlots);
    }

    /**
     * Starts reading, in the background, the rows of the next batch that are not resident now. The next
     * {@link #lookup} uses them (a prefetch for other ids is simply not used).
     */
    public void prefetch(long[] nextIds) {
        long[] unique = DistinctIds.of(nextIds).ids();
        long[] missing = Arrays.stream(unique)
                .filter(id -> slots.slotOf(id) == CacheSlots.ABSENT && !pending.contains(id)).toArray();
        if (missing.length == 0) {
            prefetch = null;
            return;
        }
        prefetch = calls.supply(() -> {
            float[] rows = new float[missing.length * dim];
            store.read(missing, rows);
            return new PrefetchedRows(missing, rows);
        });
    }

    /** Writes back every dirty row (they stay resident and clean) and every evicted row still waiting. */
    public void flush() {
        submitPending();
        PendingWriteBacks.Batch dirty = slots.takeDirty();
        if (dirty != null) {
            calls.run(() -> store.writeBack(dirty.ids(), dirty.current(), dirty.base()));
            writeBacks += dirty.ids().length;
        }
        calls.awaitAll();
    }

    /** Flushes and drops any pending prefetch. */
    @Override
    public void close() {
        prefetch = null;
        flush();
    }

    /** @return the counters so far */
    public CacheStats stats() {
        return new CacheStats(hits, misses, prefetched, slots.evictions(), writeBacks, prefetchWaitNanos, positions,
                positionHits);
    }

    /** @return rows resident now */
    public int size() {
        return slots.used();
    }

    /** @return values per row */
    public int dim() {
        return dim;
    }

    /** @return whether the row is resident */
    public boolean contains(long id) {
        return slots.slotOf(id) != CacheSlots.ABSENT;
    }

    /** Makes the missing rows resident: from the pending write-backs, the prefetch, or one read now. */
    private void load(long[] missing, PrefetchedRows ready) {
        float[] rows = new float[missing.length * dim];
        // values as read of rows taken back from the pending write-backs (none to take: no array)
        float[] taken = pending.size() > 0 ? new float[missing.length * dim] : null;
        boolean[] fromPending = new boolean[missing.length];
        long[] toRead = new long[missing.length];
        int[] readAt = new int[missing.length];
        int reads = 0;
        for (int i = 0; i < missing.length; i++) {
            if (taken != null && pending.take(missing[i], rows, taken, i * dim)) {
                fromPending[i] = true;
                continue;
            }
            int at = ready == null ? -1 : ready.indexOf(missing[i]);
            if (at >= 0) {
                System.arraycopy(ready.rows(), at * dim, rows, i * dim, dim);
                prefetched++;
            } else {
                toRead[reads] = missing[i];
                readAt[reads++] = i;
            }
        }
        if (reads > 0) {
            float[] read = new float[reads * dim];
            long[] readIds = Arrays.copyOf(toRead, reads);
            calls.run(() -> store.read(readIds, read));
            calls.awaitAll();
            for (int r = 0; r < reads; r++) {
                System.arraycopy(read, r * dim, rows, readAt[r] * dim, dim);
            }
        }
        int[] reserved = new int[missing.length];
        for (int i = 0; i < missing.length; i++) {
            reserved[i] = slots.reserve(batch, pending);
        }
        if (pending.size() >= writeBackRows) {
            submitPending();
        }
        for (int i = 0; i < missing.length; i++) {
            slots.fill(reserved[i], missing[i], rows, fromPending[i] ? taken : rows, i * dim, fromPending[i], batch);
        }
    }

    /** Sends every waiting evicted row back in one store call, after every earlier call. */
    private void submitPending() {
        if (pending.size() == 0) {
            return;
        }
        PendingWriteBacks.Batch rows = pending.drain();
        calls.run(() -> store.writeBack(rows.ids(), rows.current(), rows.base()));
        writeBacks += rows.ids().length;
    }

    private PrefetchedRows awaitPrefetch() {
        if (prefetch == null) {
            return null;
        }
        long start = System.nanoTime();
        try {
            return prefetch.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the embedding prefetch", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("embedding prefetch failed: " + e.getCause().getMessage(), e.getCause());
        } finally {
            prefetchWaitNanos += System.nanoTime() - start;
            prefetch = null;
        }
    }

    /** One looked-up batch: valid until the next {@link #lookup}. */
    public final class Batch {
        private final int[] slotOfPosition;

        private Batch(int[] slotOfPosition) {
            this.slotOfPosition = slotOfPosition;
        }

        /** @return number of positions (ids as given, repeats included) */
        public int size() {
            return slotOfPosition.length;
        }

        /** Copies every position's row into {@code out} ({@code size() * dim} floats, row-major). */
        public void gather(float[] out) {
            for (int i = 0; i < slotOfPosition.length; i++) {
                slots.copy(slotOfPosition[i], out, i * dim);
            }
        }

        /**
         * Adds {@code delta[offset .. offset + dim)} to the row of one position and marks it dirty
         * (a repeated id receives every position's delta).
         */
        public void add(int position, float[] delta, int offset) {
            slots.add(slotOfPosition[position], 1f, delta, offset);
        }

        /**
         * Adds {@code scale * rows} to every position's row ({@code rows}: {@code size() * dim} floats,
         * row-major, as {@link #gather} gives them) and marks them dirty: one local SGD step is
         * {@code addToAll(-learningRate, gradients)}.
         */
        public void addToAll(float scale, float[] rows) {
            if (rows.length != slotOfPosition.length * dim) {
                throw new IllegalArgumentException(rows.length + " values for " + slotOfPosition.length + " rows of dim " + dim);
            }
            for (int position = 0; position < slotOfPosition.length; position++) {
                slots.add(slotOfPosition[position], scale, rows, position * dim);
            }
        }
    }
}
