package io.jvmps.common.sparse;

/**
 * Finds the first repeated id of a batch without allocating: an open-addressing set of ids per thread, whose
 * entries are stamped with a generation so that a new batch starts with an empty set without clearing it. For
 * the hot paths that only need to know whether a batch is already distinct (a server's pull and push, whose
 * clients send each row once); {@link DistinctIds} does the full deduplication. Thread-safe: each thread has its
 * own set, sized to the largest batch it saw (batches over {@value #MAX_IDS} ids get a set of their own).
 */
public final class RepeatFinder {
    /** The largest batch whose set a thread keeps (two slots per id, 12 bytes a slot: 6 MiB at this size). */
    static final int MAX_IDS = 1 << 18;
    private static final ThreadLocal<RepeatFinder> LOCAL = ThreadLocal.withInitial(RepeatFinder::new);

    private long[] keys = new long[0];
    private int[] stamps = new int[0];
    private int generation;

    private RepeatFinder() {
    }

    /**
     * @param ids a batch of ids
     * @return the index of the first position whose id an earlier position already has, or -1 if all are distinct
     */
    public static int firstRepeat(long[] ids) {
        if (ids.length < 2) {
            return -1;
        }
        RepeatFinder finder = ids.length > MAX_IDS ? new RepeatFinder() : LOCAL.get();
        return finder.find(ids);
    }

    private int find(long[] ids) {
        int capacity = Integer.highestOneBit(ids.length * 2 - 1) << 1; // a power of two, at least 2 per id
        if (keys.length < capacity) {
            keys = new long[capacity];
            stamps = new int[capacity];
            generation = 0;
        }
        if (++generation == 0) { // wrapped: stamps from 2^32 batches ago could look current
            java.util.Arrays.fill(stamps, 0);
            generation = 1;
        }
        int mask = keys.length - 1;
        int gen = generation;
        for (int i = 0; i < ids.length; i++) {
            long id = ids[i];
            int slot = mix(id) & mask;
            while (stamps[slot] == gen) {
                if (keys[slot] == id) {
                    return i;
                }
                slot = (slot + 1) & mask;
            }
            stamps[slot] = gen;
            keys[slot] = id;
        }
        return -1;
    }

    private static int mix(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
