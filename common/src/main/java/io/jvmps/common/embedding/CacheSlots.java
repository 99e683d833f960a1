package io.jvmps.common.embedding;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The cache's storage: {@code capacity} slots of {@code dim} float32 values in two flat arrays (current values and
 * the values as read), the id held by each slot through a primitive id-to-slot map, whether it changed (dirty),
 * and the batch that pinned it last. A slot pinned by the current batch is never evicted; the
 * {@link EvictionPolicy}'s {@link SlotOrder} chooses among the others. Not thread-safe: the cache's training thread
 * only.
 */
final class CacheSlots {
    /** What {@link #slotOf} answers for an id that is not resident. */
    static final long ABSENT = -1;

    private final int dim;
    private final int capacity;
    private final float[] values;
    private final float[] base;
    private final long[] slotIds;
    private final boolean[] dirty;
    private final long[] pinnedIn;
    private final SlotOrder order;
    private final Long2LongHashMap slotOf = new Long2LongHashMap(ABSENT);
    private int used;
    private long evictions;

    CacheSlots(int dim, int capacity, EvictionPolicy policy) {
        if ((long) dim * capacity > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("vocab_cache_size " + capacity + " x dim " + dim
                    + " exceeds one array (2^31 - 1 floats)");
        }
        this.dim = dim;
        this.capacity = capacity;
        this.values = new float[dim * capacity];
        this.base = new float[dim * capacity];
        this.slotIds = new long[capacity];
        this.dirty = new boolean[capacity];
        this.pinnedIn = new long[capacity];
        Arrays.fill(pinnedIn, -1);
        this.order = SlotOrder.of(policy, capacity);
    }

    /** @return the slot holding {@code id}, or {@link #ABSENT} */
    long slotOf(long id) {
        return slotOf.get(id);
    }

    /** @return slots in use */
    int used() {
        return used;
    }

    /** @return rows evicted so far */
    long evictions() {
        return evictions;
    }

    /** Pins a resident row for {@code batch} and counts the access for the eviction order. */
    void pin(int slot, long batch) {
        pinnedIn[slot] = batch;
        order.touch(slot);
    }

    /**
     * @return a slot reserved for {@code batch}: an unused one, or the one the eviction order picks among those
     *         the batch did not pin; an evicted dirty row goes to {@code pending}
     * @throws IllegalStateException when the batch pinned every slot
     */
    int reserve(long batch, PendingWriteBacks pending) {
        if (used < capacity) {
            int s = used++;
            pinnedIn[s] = batch;
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

    /**
     * Fills a reserved slot with row {@code id}: its values from {@code rows[at ..]}, its values as read from
     * {@code read[at ..]}; dirty when those differ in origin (a row taken back from a pending write-back).
     */
    void fill(int slot, long id, float[] rows, float[] read, int at, boolean changed, long batch) {
        System.arraycopy(rows, at, values, slot * dim, dim);
        System.arraycopy(read, at, base, slot * dim, dim);
        slotIds[slot] = id;
        dirty[slot] = changed;
        pinnedIn[slot] = batch;
        slotOf.put(id, slot);
        order.touch(slot);
    }

    /** Copies the slot's current values to {@code out[at ..]}. */
    void copy(int slot, float[] out, int at) {
        System.arraycopy(values, slot * dim, out, at, dim);
    }

    /** Adds {@code scale * rows[offset .. offset + dim)} to the slot's values and marks it dirty. */
    void add(int slot, float scale, float[] rows, int offset) {
        int at = slot * dim;
        for (int k = 0; k < dim; k++) {
            values[at + k] += scale * rows[offset + k];
        }
        dirty[slot] = true;
    }

    /**
     * @return every dirty row's id, current values and values as read, or null when none is dirty; the rows stay
     *         resident and are clean afterwards (their values as read are now their current values)
     */
    PendingWriteBacks.Batch takeDirty() {
        int count = 0;
        for (int s = 0; s < used; s++) {
            count += dirty[s] ? 1 : 0;
        }
        if (count == 0) {
            return null;
        }
        float[] current = new float[count * dim];
        float[] before = new float[count * dim];
        long[] ids = new long[count];
        int i = 0;
        for (int s = 0; s < used; s++) {
            if (dirty[s]) {
                ids[i] = slotIds[s];
                System.arraycopy(values, s * dim, current, i * dim, dim);
                System.arraycopy(base, s * dim, before, i * dim, dim);
                System.arraycopy(values, s * dim, base, s * dim, dim);
                dirty[s] = false;
                i++;
            }
        }
        return new PendingWriteBacks.Batch(ids, current, before);
    }
}
