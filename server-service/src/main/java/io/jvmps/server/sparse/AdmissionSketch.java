package io.jvmps.server.sparse;

/**
 * How often each id was pushed recently, in fixed memory: a count-min sketch of {@value #DEPTH} rows of byte
 * counters (saturating at 255), updated conservatively (only the counters at the current minimum grow, which keeps
 * the over-count of ids sharing counters small). An estimate is never below the true count since the last aging.
 * Aging: after {@code 10 x width} counted pushes every counter is halved, so counts follow the recent stream.
 * Not thread-safe: the owning table's write lock guards it.
 */
final class AdmissionSketch {
    static final int DEPTH = 4;
    /** Counters per row by default: 4 x 64 Ki = 256 KiB per table and server. */
    static final int DEFAULT_WIDTH = 1 << 16;
    private static final long[] SEEDS = {0x9E3779B97F4A7C15L, 0xC2B2AE3D27D4EB4FL, 0x165667B19E3779F9L,
            0xD6E8FEB86659FD93L};

    private final int width;
    private final int mask;
    private final byte[] counters;
    private long additions;

    /** @param width counters per row, a power of two */
    AdmissionSketch(int width) {
        if (width < 1 || Integer.bitCount(width) != 1) {
            throw new IllegalArgumentException("sketch width must be a power of two, got " + width);
        }
        this.width = width;
        this.mask = width - 1;
        this.counters = new byte[DEPTH * width];
    }

    /**
     * @param counters a saved sketch's counters ({@link #counters()}), taken
     * @param additions its counted pushes since its last aging
     */
    static AdmissionSketch restore(byte[] counters, long additions) {
        if (counters.length % DEPTH != 0 || Integer.bitCount(counters.length / DEPTH) != 1 || additions < 0) {
            throw new IllegalArgumentException("a saved admission sketch has " + counters.length
                    + " counters and " + additions + " additions");
        }
        AdmissionSketch sketch = new AdmissionSketch(counters.length / DEPTH);
        System.arraycopy(counters, 0, sketch.counters, 0, counters.length);
        sketch.additions = additions;
        return sketch;
    }

    /** @return the id's recent push count, at least its true count and at most 255 */
    int estimate(long id) {
        int min = 255;
        for (int d = 0; d < DEPTH; d++) {
            min = Math.min(min, counters[slot(d, id)] & 0xFF);
        }
        return min;
    }

    /** Counts one push of {@code id}. */
    void add(long id) {
        int min = estimate(id);
        if (min < 255) {
            for (int d = 0; d < DEPTH; d++) {
                int at = slot(d, id);
                if ((counters[at] & 0xFF) == min) {
                    counters[at] = (byte) (min + 1);
                }
            }
        }
        if (++additions >= 10L * width) {
            age();
        }
    }

    private void age() {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = (byte) ((counters[i] & 0xFF) >>> 1);
        }
        additions = 0;
    }

    /** Adds another server's sketch of the same width (a checkpoint's parts), saturating. */
    void merge(AdmissionSketch other) {
        if (other.width != width) {
            throw new IllegalArgumentException("admission sketches of width " + width + " and " + other.width);
        }
        for (int i = 0; i < counters.length; i++) {
            counters[i] = (byte) Math.min(255, (counters[i] & 0xFF) + (other.counters[i] & 0xFF));
        }
        additions = Math.max(additions, other.additions);
    }

    /** @return a copy of the counters, row by row */
    byte[] counters() {
        return counters.clone();
    }

    /** @return pushes counted since the last aging */
    long additions() {
        return additions;
    }

    /** @return bytes the counters hold */
    long bytes() {
        return counters.length;
    }

    private int slot(int row, long id) {
        long h = (id ^ SEEDS[row]) * 0xBF58476D1CE4E5B9L;
        h ^= h >>> 31;
        h *= 0x94D049BB133111EBL;
        h ^= h >>> 29;
        return row * width + (int) (h & mask);
    }
}
