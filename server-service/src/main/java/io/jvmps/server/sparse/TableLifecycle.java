package io.jvmps.server.sparse;

import io.jvmps.common.sparse.RowLifecycle;

/**
 * One table's admission and eviction state on this server ({@link RowLifecycle}): the admission sketch, the
 * table's clock (the highest step a push to it carried), when idle rows were last swept, and the counts of rows
 * admitted and evicted and of row gradients dropped before admission. Not thread-safe: the table's write lock
 * guards every change; the counts are read under its read lock.
 */
final class TableLifecycle {
    private final RowLifecycle settings;
    private AdmissionSketch sketch;
    private long clock;
    private long lastSweep;
    private long admitted;
    private long evicted;
    private long dropped;

    TableLifecycle(RowLifecycle settings) {
        this.settings = settings;
        this.sketch = settings.admits() ? new AdmissionSketch(AdmissionSketch.DEFAULT_WIDTH) : null;
    }

    /** @return true when an id without a row gets one with this push (its count including this push suffices) */
    boolean admitsNow(long id) {
        return sketch == null || sketch.estimate(id) + 1 >= settings.admitAfter();
    }

    /** Counts a push of an id that has no row (admitted by it or not). */
    void countPush(long id) {
        if (sketch != null) {
            sketch.add(id);
        }
    }

    /** Records what one push did: rows it created and row gradients it dropped. */
    void pushed(int created, int droppedRows) {
        admitted += created;
        dropped += droppedRows;
    }

    /** @return the table's clock after a push of {@code step}: the highest step seen */
    long advance(long step) {
        clock = Math.max(clock, step);
        return clock;
    }

    /**
     * @return the clock below which a row's last touch makes it idle, when a sweep is due, else {@link Long#MIN_VALUE}.
     *         A sweep is due on the first push whose clock enters a new interval of a quarter of
     *         {@code evictAfterSteps} (at least 1): intervals are fixed on the clock, so a table restored from a
     *         checkpoint sweeps at the same steps as the one it was saved from
     */
    long sweepCutoff() {
        long interval = Math.max(1, settings.evictAfterSteps() / 4);
        if (!settings.evicts() || clock / interval == lastSweep / interval) {
            return Long.MIN_VALUE;
        }
        lastSweep = clock;
        return clock - settings.evictAfterSteps();
    }

    void evicted(int rows) {
        evicted += rows;
    }

    /** Puts the state back as a checkpoint holds it: the sketch (a fresh one if none was saved) and the clock. */
    void restore(io.jvmps.server.sparse.SparseRows.Admission saved, long savedClock) {
        if (settings.admits()) {
            sketch = saved == null ? new AdmissionSketch(AdmissionSketch.DEFAULT_WIDTH)
                    : AdmissionSketch.restore(saved.counters(), saved.additions());
        }
        clock = savedClock;
        lastSweep = savedClock;
    }

    /** @return the sketch's counters for a checkpoint, or null without admission */
    io.jvmps.server.sparse.SparseRows.Admission saved() {
        return sketch == null ? null : new io.jvmps.server.sparse.SparseRows.Admission(sketch.counters(),
                sketch.additions());
    }

    long admitted() {
        return admitted;
    }

    long evicted() {
        return evicted;
    }

    long dropped() {
        return dropped;
    }

    /** @return bytes of the admission sketch (0 without admission) */
    long sketchBytes() {
        return sketch == null ? 0 : sketch.bytes();
    }
}
