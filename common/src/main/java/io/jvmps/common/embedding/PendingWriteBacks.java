package io.jvmps.common.embedding;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * Evicted dirty rows whose write-back has not been sent yet: each row's current values and its values as
 * read (the write-back sends their difference). A row missed again before it is sent is taken back from
 * here, never read from the store, which does not hold its change yet. Rows are kept in insertion slots
 * of two growing flat arrays; taking one moves the last row into its slot. Not thread-safe: used by the
 * cache's training thread only.
 */
final class PendingWriteBacks {
    private static final long ABSENT = -1;

    private final int dim;
    private final Long2LongHashMap indexOf = new Long2LongHashMap(ABSENT);
    private long[] ids = new long[16];
    private float[] current;
    private float[] base;
    private int count;

    PendingWriteBacks(int dim) {
        this.dim = dim;
        this.current = new float[ids.length * dim];
        this.base = new float[ids.length * dim];
    }

    /** @return rows waiting */
    int size() {
        return count;
    }

    /** Adds an evicted row: {@code dim} values of each array from its offset. The id must not be waiting. */
    void add(long id, float[] currentValues, float[] baseValues, int offset) {
        if (count == ids.length) {
            ids = Arrays.copyOf(ids, count * 2);
            current = Arrays.copyOf(current, count * 2 * dim);
            base = Arrays.copyOf(base, count * 2 * dim);
        }
        ids[count] = id;
        System.arraycopy(currentValues, offset, current, count * dim, dim);
        System.arraycopy(baseValues, offset, base, count * dim, dim);
        indexOf.put(id, count);
        count++;
    }

    /** @return whether the row waits here */
    boolean contains(long id) {
        return indexOf.get(id) != ABSENT;
    }

    /**
     * Takes a waiting row back: copies its current and base values to the offset of each destination and
     * forgets it (its change goes back to the servers with the row's next write-back).
     *
     * @return false if the row was not waiting (nothing copied)
     */
    boolean take(long id, float[] currentOut, float[] baseOut, int offset) {
        long at = indexOf.remove(id);
        if (at == ABSENT) {
            return false;
        }
        int i = (int) at;
        System.arraycopy(current, i * dim, currentOut, offset, dim);
        System.arraycopy(base, i * dim, baseOut, offset, dim);
        int last = --count;
        if (i != last) {
            ids[i] = ids[last];
            System.arraycopy(current, last * dim, current, i * dim, dim);
            System.arraycopy(base, last * dim, base, i * dim, dim);
            indexOf.put(ids[i], i);
        }
        return true;
    }

    /** @return every waiting row, in one batch; none wait afterwards */
    Batch drain() {
        Batch all = new Batch(Arrays.copyOf(ids, count), Arrays.copyOf(current, count * dim),
                Arrays.copyOf(base, count * dim));
        indexOf.clear();
        count = 0;
        return all;
    }

    /** Rows to write back: ids, current values and values as read, row-major. */
    record Batch(long[] ids, float[] current, float[] base) {
    }
}
