package io.jvmps.common.embedding;

import io.jvmps.common.sparse.DistinctIds;
import org.agrona.collections.Long2LongHashMap;

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
 * given executor, chained one after another in the order the training thread issued them, so a read of
 * a row always follows the write-back of its earlier eviction: write-backs of evicted rows do not hold the
 * training thread up; a read it needs now (a miss no prefetch covered) waits for the writes before it. A
 * failed store call fails the next lookup or flush. Not thread-safe otherwise.
 */
public final class EmbeddingCacheManager implements AutoCloseable {
    private static final long ABSENT = -1;

    private final int dim;
    private final int capacity;
    private final RowStore store;
    private final Executor prefetchExecutor;
    private final float[] values;
    private final float[] base;
    private final long[] slotIds;
    private final boolean[] dirty;
    private final long[] pinnedIn;
    private final SlotOrder order;
    private final Long2LongHashMap slotOf = new Long2LongHashMap(ABSENT);
    private final PendingWriteBacks pending;
    private final int writeBackRows;
    private int used;
    private long batch;
    private CompletableFuture<Prefetch> prefetch;
    private CompletableFuture<?> io = CompletableFuture.completedFuture(null);
    private long positions;
    private long positionHits;
    private long hits;
    private long misses;
    private long prefetched;
    private long evictions;
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
        if ((long) dim * capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("vocab_cache_size " + capacity + " x dim " + dim
                    + " exceeds one array (2^31 - 1 floats)");
        }
        this.dim = dim;
        this.capacity = capacity;
        this.store = store;
        this.prefetchExecutor = prefetchExecutor;
        this.values = new float[dim * capacity];
        this.base = new float[dim * capacity];
        this.slotIds = new long[capacity];
        this.dirty = new boolean[capacity];
        this.pinnedIn = new long[capacity];
        Arrays.fill(pinnedIn, -1);
        this.order = SlotOrder.of(policy, capacity);
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
        failIfStoreFailed();
        Prefetch ready = awaitPrefetch();
        long[] missing = new long[unique.length];
        int missingCount = 0;
        boolean[] hit = new boolean[unique.length];
        for (int u = 0; u < unique.length; u++) {
            long slot = slotOf.get(unique[u]);
            if (slot != ABSENT) {
                hits++;
                hit[u] = true;
                pinnedIn[(int) slot] = batch;
                order.touch((int) slot);
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
            slotOfUnique[u] = (int) slotOf.get(unique[u]);
        }
        int[] slots = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            slots[i] = slotOfUnique[distinct.indexOf()[i]];
        }
        return new Batch(slots);
    }

    /**
     * Starts reading, in the background, the rows of the next batch that are not resident now. The next
     * {@link #lookup} uses them (a prefetch for other ids is simply not used).
     */
    public void prefetch(long[] nextIds) {
        long[] unique = distinct(nextIds);
        long[] missing = Arrays.stream(unique).filter(id -> slotOf.get(id) == ABSENT && !pending.contains(id)).toArray();
        if (missing.length == 0) {
            prefetch = null;
            return;
        }
        prefetch = io.thenApplyAsync(previous -> {
            float[] rows = new float[missing.length * dim];
            store.read(missing, rows);
            return new Prefetch(missing, rows);
        }, prefetchExecutor);
        io = prefetch;
    }

    /** Runs a store call after every earlier one, off the training thread. */
    private void submit(Runnable call) {
        io = io.thenRunAsync(call, prefetchExecutor);
    }

    /** Waits until every store call issued so far has run; rethrows the first failure. */
    private void awaitStore() {
        try {
            io.join();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            throw storeFailure(e);
        }
    }

    private void failIfStoreFailed() {
        if (io.isCompletedExceptionally()) {
            awaitStore();
        }
    }

    private static RuntimeException storeFailure(RuntimeException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        return cause instanceof RuntimeException runtime ? runtime
                : new IllegalStateException("embedding store call failed: " + cause, cause);
    }

    /** Writes back every dirty row (they stay resident and clean) and every evicted row still waiting. */
    public void flush() {
        submitPending();
        int[] dirtySlots = new int[used];
        int count = 0;
        for (int s = 0; s < used; s++) {
            if (dirty[s]) {
                dirtySlots[count++] = s;
            }
        }
        if (count == 0) {
            awaitStore();
            return;
        }
        float[] current = new float[count * dim];
        float[] before = new float[count * dim];
        long[] written = new long[count];
        for (int i = 0; i < count; i++) {
            int s = dirtySlots[i];
            written[i] = slotIds[s];
            System.arraycopy(values, s * dim, current, i * dim, dim);
            System.arraycopy(base, s * dim, before, i * dim, dim);
            System.arraycopy(values, s * dim, base, s * dim, dim);
            dirty[s] = false;
        }
        submit(() -> store.writeBack(written, current, before));
        writeBacks += count;
        awaitStore();
    }

    /** Flushes and drops any pending prefetch. */
    @Override
    public void close() {
        prefetch = null;
        flush();
    }

    /** @return the counters so far */
    public CacheStats stats() {
        return new CacheStats(hits, misses, prefetched, evictions, writeBacks, prefetchWaitNanos, positions,
                positionHits);
    }

    /** @return rows resident now */
    public int size() {
        return used;
    }

    /** @return values per row */
    public int dim() {
        return dim;
    }

    /** @return whether the row is resident */
    public boolean contains(long id) {
        return slotOf.get(id) != ABSENT;
    }

    private void load(long[] missing, Prefetch ready) {
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
                System.arraycopy(ready.rows, at * dim, rows, i * dim, dim);
                prefetched++;
            } else {
                toRead[reads] = missing[i];
                readAt[reads++] = i;
            }
        }
        if (reads > 0) {
            float[] read = new float[reads * dim];
            long[] readIds = Arrays.copyOf(toRead, reads);
            submit(() -> store.read(readIds, read));
            awaitStore();
            for (int r = 0; r < reads; r++) {
                System.arraycopy(read, r * dim, rows, readAt[r] * dim, dim);
            }
        }
        int[] slots = new int[missing.length];
        for (int i = 0; i < missing.length; i++) {
            slots[i] = freeSlot();
        }
        if (pending.size() >= writeBackRows) {
            submitPending();
        }
        for (int i = 0; i < missing.length; i++) {
            int s = slots[i];
            System.arraycopy(rows, i * dim, values, s * dim, dim);
            System.arraycopy(fromPending[i] ? taken : rows, i * dim, base, s * dim, dim);
            slotIds[s] = missing[i];
            dirty[s] = fromPending[i];
            pinnedIn[s] = batch;
            slotOf.put(missing[i], s);
            order.touch(s);
        }
    }

    /** Sends every waiting evicted row back in one store call, after every earlier call. */
    private void submitPending() {
        if (pending.size() == 0) {
            return;
        }
        PendingWriteBacks.Batch rows = pending.drain();
        submit(() -> store.writeBack(rows.ids(), rows.current(), rows.base()));
        writeBacks += rows.ids().length;
    }

    private int freeSlot() {
        if (used < capacity) {
            int s = used++;
            pinnedIn[s] = batch;        // reserved for this batch until filled
            return s;
        }
        int s = order.victim(slot -> pinnedIn[slot] == batch);
        if (s < 0) {
            throw new IllegalStateException("every slot is pinned by the current batch");
        }
        if (dirty[s]) {
            pending.add(slotIds[s], values, base, s * dim);
            dirty[s] = false;
        }
        slotOf.remove(slotIds[s]);
        pinnedIn[s] = batch;
        evictions++;
        return s;
    }

    private Prefetch awaitPrefetch() {
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

    private static long[] distinct(long[] ids) {
        return DistinctIds.of(ids).ids();
    }

    /** Rows read in the background for the next batch, with an id-to-row index. */
    private record Prefetch(Long2LongHashMap index, float[] rows) {
        Prefetch(long[] ids, float[] rows) {
            this(byId(ids), rows);
        }

        int indexOf(long id) {
            return (int) index.get(id);
        }

        private static Long2LongHashMap byId(long[] ids) {
            Long2LongHashMap index = new Long2LongHashMap(ids.length * 2, 0.65f, ABSENT);
            for (int i = 0; i < ids.length; i++) {
                index.put(ids[i], i);
            }
            return index;
        }
    }

    /** One looked-up batch: valid until the next {@link #lookup}. */
    public final class Batch {
        private final int[] slots;

        private Batch(int[] slots) {
            this.slots = slots;
        }

        /** @return number of positions (ids as given, repeats included) */
        public int size() {
            return slots.length;
        }

        /** Copies every position's row into {@code out} ({@code size() * dim} floats, row-major). */
        public void gather(float[] out) {
            for (int i = 0; i < slots.length; i++) {
                System.arraycopy(values, slots[i] * dim, out, i * dim, dim);
            }
        }

        /**
         * Adds {@code delta[offset .. offset + dim)} to the row of one position and marks it dirty
         * (a repeated id receives every position's delta).
         */
        public void add(int position, float[] delta, int offset) {
            addScaled(position, 1f, delta, offset);
        }

        /**
         * Adds {@code scale * rows} to every position's row ({@code rows}: {@code size() * dim} floats,
         * row-major, as {@link #gather} gives them) and marks them dirty: one local SGD step is
         * {@code addToAll(-learningRate, gradients)}.
         */
        public void addToAll(float scale, float[] rows) {
            if (rows.length != slots.length * dim) {
                throw new IllegalArgumentException(rows.length + " values for " + slots.length + " rows of dim " + dim);
            }
            for (int position = 0; position < slots.length; position++) {
                addScaled(position, scale, rows, position * dim);
            }
        }

        private void addScaled(int position, float scale, float[] rows, int offset) {
            int at = slots[position] * dim;
            for (int k = 0; k < dim; k++) {
                values[at + k] += scale * rows[offset + k];
            }
            dirty[slots[position]] = true;
        }
    }
}
