package io.jvmps.server.sparse;

import io.jvmps.common.sparse.RowInitializer;
import io.jvmps.common.sparse.SparseIds;

import io.jvmps.server.store.MemoryBudget;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.DistinctIds;
import io.jvmps.common.sparse.RepeatFinder;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.SparseTableStatus;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.optimizer.Optimizer;
import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One sparse table's rows on this server. A row exists only once a push touched it; until then a pull
 * reads its initial value from {@link RowInitializer}, so pulls never allocate. A push deduplicates its
 * ids (summing the values of repeated ids; a push that repeats none, as clients send them, is applied as it came), checks everything, reserves memory for the rows it creates,
 * and only then changes rows, so a rejected push changes nothing. The table's {@link
 * io.jvmps.common.sparse.RowLifecycle} decides when an id gets a row (admission: until then its gradients are
 * dropped and counted) and when an idle row is removed (eviction, swept as pushes advance the table's clock).
 * Pulls share a read lock; pushes take the write lock. Thread-safe.
 */
public final class SparseTable {
    private static final long ABSENT = -1;
    /** A row the push does not create: its id is not admitted yet. */
    private static final long DROPPED = -2;

    private final SparseTableSpec spec;
    private final Optimizer optimizer;
    private final MemoryBudget budget;
    private final RowBlocks blocks;
    private final Long2LongHashMap rowOf = new Long2LongHashMap(ABSENT);
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final TableLifecycle life;
    private final RowRemoval removal;
    /** Rows restored without their clocks (a checkpoint of a table that did not evict): the next push touches all. */
    private boolean rowsUnclocked;
    private long updates;

    SparseTable(SparseTableSpec spec, Optimizer optimizer, MemoryBudget budget) {
        this.spec = spec;
        this.optimizer = optimizer;
        this.budget = budget;
        this.blocks = new RowBlocks(spec.dim(), optimizer.rowStateFloats(spec.dim()), optimizer.rowStateInitialValue(),
                spec.lifecycle().tracksIdleness());
        this.life = new TableLifecycle(spec.lifecycle());
        this.removal = new RowRemoval(blocks, rowOf, budget, life);
    }

    /** @return the declaration */
    public SparseTableSpec spec() {
        return spec;
    }

    /** @return the optimizer applied to gradient pushes */
    public Optimizer optimizer() {
        return optimizer;
    }

    /**
     * Reads rows.
     *
     * @param ids distinct ids
     * @param out receives {@code ids.length * dim} floats, row {@code i} at {@code i * dim}
     * @throws PsException INVALID_ARGUMENT if an id repeats (nothing is answered twice)
     */
    public void pull(long[] ids, float[] out) {
        requireLength(out.length, ids.length, "pull destination");
        pull(ids, java.nio.FloatBuffer.wrap(out));
    }

    /**
     * Reads rows straight into a buffer (a pull's answer frame), with absolute puts.
     *
     * @param ids distinct ids
     * @param out receives {@code ids.length * dim} floats from index 0, row {@code i} at {@code i * dim}
     * @throws PsException INVALID_ARGUMENT if an id repeats, SHAPE_MISMATCH if {@code out} is too small
     */
    public void pull(long[] ids, java.nio.FloatBuffer out) {
        int dim = spec.dim();
        if (out.limit() < (long) ids.length * dim) {
            requireLength(out.limit(), ids.length, "pull destination");
        }
        requireDistinct(ids);
        float[] initial = null;
        lock.readLock().lock();
        try {
            for (int i = 0; i < ids.length; i++) {
                long row = rowOf.get(ids[i]);
                if (row == ABSENT) {
                    initial = initial == null ? new float[dim] : initial;
                    RowInitializer.fill(spec.seed(), ids[i], spec.initScale(), initial, 0, dim);
                    out.put(i * dim, initial, 0, dim);
                } else {
                    out.put(i * dim, blocks.block((int) row), blocks.offset((int) row), dim);
                }
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Creates rows {@code 0 .. count - 1} that {@code owned} accepts, at their initial values (a table declared
     * with {@code initRows}). Memory for all of them is reserved first, so a cap that is too small creates none.
     *
     * @throws PsException RESOURCE_EXHAUSTED naming the cap
     */
    void createRows(long count, java.util.function.LongPredicate owned) {
        if (count == 0) {
            return;
        }
        int dim = spec.dim();
        lock.writeLock().lock();
        try {
            int mine = 0;
            for (long id = 0; id < count; id++) {
                if (owned.test(id) && !rowOf.containsKey(id)) {
                    mine++;
                }
            }
            long more = blocks.bytesFor(mine);
            if (more > 0) {
                budget.reserve(more, "sparse table '" + spec.name() + "' creating its "
                        + mine + " initial rows on this server");
            }
            float[] initial = new float[dim];
            for (long id = 0; id < count; id++) {
                if (owned.test(id) && !rowOf.containsKey(id)) {
                    RowInitializer.fill(spec.seed(), id, spec.initScale(), initial, 0, dim);
                    rowOf.put(id, blocks.append(id, initial, 0));
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Applies one push.
     *
     * @param ids    row ids, repeats allowed (their values are summed)
     * @param values {@code ids.length * dim} floats, row-major
     * @param kind   gradients (the optimizer runs once per distinct row) or deltas (added)
     * @return number of distinct rows changed
     * @throws PsException NON_FINITE, SHAPE_MISMATCH or RESOURCE_EXHAUSTED; nothing changed then
     */
    public int push(long[] ids, float[] values, UpdateKind kind) {
        return check(ids, values, kind).apply();
    }

    /**
     * Applies one push of a training step (the table's clock, which eviction counts in, is the highest step seen).
     *
     * @return number of distinct rows changed (ids not admitted yet are not counted)
     */
    public int push(long step, long[] ids, float[] values, UpdateKind kind) {
        return check(step, ids, values, kind).apply();
    }

    /**
     * A push that passed {@link #check}: its distinct ids and their summed values, ready for {@link CheckedPush#apply}.
     * Immutable; arrays are not copied. Thread-safe (applying takes the table's write lock).
     */
    public static final class CheckedPush {
        private final SparseTable table;
        private final long[] ids;
        private final float[] values;
        private final UpdateKind kind;
        private final long step;

        private CheckedPush(SparseTable table, long step, long[] ids, float[] values, UpdateKind kind) {
            this.table = table;
            this.step = step;
            this.ids = ids;
            this.values = values;
            this.kind = kind;
        }

        /**
         * Applies the push to its table: reserves memory for the rows it creates, then changes rows.
         *
         * @return number of distinct rows changed (ids not admitted yet are not counted)
         * @throws PsException RESOURCE_EXHAUSTED; nothing changed then
         */
        public int apply() {
            return table.apply(this);
        }
    }

    /**
     * The part of {@link #push} that needs no lock: the shape and finiteness checks, then the deduplication (a push
     * that names each row once, as clients send them, is kept as it came; else repeats are summed). For a caller
     * that checks several pushes before applying any.
     *
     * @throws PsException SHAPE_MISMATCH or NON_FINITE naming the id and element
     */
    public CheckedPush check(long[] ids, float[] values, UpdateKind kind) {
        return check(0, ids, values, kind);
    }

    /** {@link #check(long[], float[], UpdateKind)} for a push of training step {@code step}. */
    public CheckedPush check(long step, long[] ids, float[] values, UpdateKind kind) {
        int dim = spec.dim();
        requireLength(values.length, ids.length, "push values");
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                throw new PsException(ErrorCode.NON_FINITE, "sparse push to '" + spec.name() + "': value "
                        + values[i] + " for id " + ids[i / dim] + " element " + (i % dim));
            }
        }
        if (RepeatFinder.firstRepeat(ids) < 0) {
            return new CheckedPush(this, step, ids, values, kind);
        }
        DistinctIds distinct = DistinctIds.of(ids);
        return new CheckedPush(this, step, distinct.ids(), distinct.sum(values, dim), kind);
    }

    private int apply(CheckedPush push) {
        lock.writeLock().lock();
        try {
            long[] found = reserveFor(push.ids);
            long clock = life.advance(push.step);
            if (rowsUnclocked) {
                for (int row = 0; row < blocks.rows(); row++) {
                    blocks.touch(row, clock);
                }
                rowsUnclocked = false;
            }
            int changed = applyAll(push.ids, found, push.values, push.kind, clock);
            long cutoff = life.sweepCutoff();
            if (cutoff != Long.MIN_VALUE) {
                removal.idleBefore(cutoff);
            }
            return changed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Applies distinct rows' values (row {@code i} at {@code i * dim}); creates the {@link #ABSENT} ones first and
     * skips the {@link #DROPPED} ones.
     *
     * @return rows changed
     */
    private int applyAll(long[] distinctIds, long[] found, float[] values, UpdateKind kind, long clock) {
        int dim = spec.dim();
        float[] initial = null;
        boolean evicts = spec.lifecycle().tracksIdleness();
        int created = 0;
        int dropped = 0;
        for (int i = 0; i < distinctIds.length; i++) {
            long row = found[i];
            if (row == DROPPED) {
                dropped++;
                continue;
            }
            if (row == ABSENT) {
                created++;
                long id = distinctIds[i];
                initial = initial == null ? new float[dim] : initial;
                RowInitializer.fill(spec.seed(), id, spec.initScale(), initial, 0, dim);
                row = blocks.append(id, initial, 0);
                rowOf.put(id, row);
            }
            apply((int) row, values, i * dim, kind);
            if (evicts) {
                blocks.touch((int) row, clock);
            }
        }
        updates++;
        life.pushed(created, dropped);
        return distinctIds.length - dropped;
    }

    private void apply(int row, float[] values, int offset, UpdateKind kind) {
        float[] block = blocks.block(row);
        int at = blocks.offset(row);
        int dim = spec.dim();
        if (kind == UpdateKind.DELTA) {
            for (int k = 0; k < dim; k++) {
                block[at + k] += values[offset + k];
            }
        } else {
            optimizer.applyRow(block, at, dim, values, offset, blocks.nextStep(row));
        }
    }

    /**
     * Reserves the memory of the rows the push creates, then counts the push of every id without a row in the
     * admission sketch (after the reservation, so a refused push counts nothing).
     *
     * @return each id's row, {@link #ABSENT} for one the push creates or {@link #DROPPED} for one not admitted yet
     *         (one map lookup per id for the whole push)
     */
    private long[] reserveFor(long[] distinctIds) {
        long[] found = new long[distinctIds.length];
        int fresh = 0;
        boolean counted = false;
        for (int i = 0; i < distinctIds.length; i++) {
            found[i] = rowOf.get(distinctIds[i]);
            if (found[i] == ABSENT) {
                counted = true;
                if (life.admitsNow(distinctIds[i])) {
                    fresh++;
                } else {
                    found[i] = DROPPED;
                }
            }
        }
        long more = blocks.bytesFor(fresh);
        if (more > 0) {
            try {
                budget.reserve(more, "sparse push to '" + spec.name() + "' creating "
                        + fresh + " rows");
            } catch (PsException full) {
                if (!spec.lifecycle().evictWhenFull() || !removal.makeRoom(fresh, found)) {
                    throw full;
                }
                for (int i = 0; i < distinctIds.length; i++) { // rows moved: look the push's rows up again
                    found[i] = found[i] == ABSENT || found[i] == DROPPED ? found[i] : rowOf.get(distinctIds[i]);
                }
                long still = blocks.bytesFor(fresh); // 0: the freed places hold the new rows
                if (still > 0) {
                    budget.reserve(still, "sparse push to '" + spec.name() + "' creating " + fresh + " rows");
                }
            }
        }
        if (counted && spec.lifecycle().admits()) {
            for (int i = 0; i < distinctIds.length; i++) {
                if (found[i] == DROPPED) {
                    life.countPush(distinctIds[i]);
                }
            }
        }
        return found;
    }

    private void requireLength(int actual, int rows, String what) {
        long expected = (long) rows * spec.dim();
        if (actual != expected) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "sparse table '" + spec.name() + "' has dim "
                    + spec.dim() + ": " + what + " for " + rows + " ids must be " + expected + " floats, got " + actual);
        }
    }

    private void requireDistinct(long[] ids) {
        int repeat = RepeatFinder.firstRepeat(ids);
        if (repeat >= 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse pull from '" + spec.name()
                    + "' names id " + ids[repeat] + " twice; ask for each row once");
        }
    }

    /**
     * @param after the page starts after this id, or null for the first page
     * @param limit most ids to return
     * @return up to {@code limit} ids this table holds, ascending, after {@code after}, and whether more follow
     */
    public SparseIds ids(Long after, int limit) {
        long[] all;
        lock.readLock().lock();
        try {
            all = new long[rowOf.size()];
            int[] n = {0};
            rowOf.keySet().forEach(id -> all[n[0]++] = id);
        } finally {
            lock.readLock().unlock();
        }
        java.util.Arrays.sort(all);
        int from = 0;
        if (after != null) {
            int at = java.util.Arrays.binarySearch(all, after);
            from = at >= 0 ? at + 1 : -at - 1;
        }
        int to = (int) Math.min(all.length, (long) from + limit);
        return new SparseIds(java.util.Arrays.copyOfRange(all, from, to), to < all.length);
    }

    /** @return a copy of every row this table holds, with optimizer state and update counts */
    public SparseRows copy() {
        lock.readLock().lock();
        try {
            SparseRows rows = blocks.copy(spec, updates);
            return new SparseRows(spec, rows.stateFloats(), updates, rows.ids(), rows.steps(), rows.data(),
                    rows.touched(), life.saved());
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Replaces every row with the rows of {@code from} that {@code owned} accepts (a checkpoint restored or
     * rolled back to); {@code from} null empties the table. Memory is given back, then reserved again.
     *
     * @throws PsException INVALID_ARGUMENT when {@code from} is another table or has other optimizer state;
     *                     RESOURCE_EXHAUSTED when the rows do not fit the cap (the table is then empty)
     */
    public void replaceWith(SparseRows from, java.util.function.LongPredicate owned) {
        SparseRows mine = from == null ? null : from.filter(owned);
        if (mine != null && (!mine.spec().equals(spec) || mine.stride() != blocks.stride())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + spec.name() + "' is declared as "
                    + spec + " with " + (blocks.stride() - spec.dim()) + " optimizer state floats per row; the "
                    + "checkpoint holds " + mine.spec() + " with " + mine.stateFloats());
        }
        lock.writeLock().lock();
        try {
            budget.release(blocks.heldBytes());
            blocks.clear();
            rowOf.clear();
            updates = mine == null ? 0 : mine.updates();
            if (mine == null) {
                life.restore(null, 0);
                return;
            }
            budget.reserve(blocks.bytesFor(mine.rows()), "sparse table '" + spec.name()
                    + "' restoring " + mine.rows() + " rows from a checkpoint");
            long clock = 0;
            for (int i = 0; i < mine.rows(); i++) {
                rowOf.put(mine.ids()[i], blocks.appendCopy(mine, i));
                clock = mine.touched() == null ? clock : Math.max(clock, mine.touched()[i]);
            }
            life.restore(mine.admission(), clock);
            rowsUnclocked = spec.lifecycle().tracksIdleness() && mine.touched() == null && mine.rows() > 0;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** @return this table's status on this server */
    public SparseTableStatus status() {
        lock.readLock().lock();
        try {
            return new SparseTableStatus(spec.name(), spec.dim(), optimizer.describe(), blocks.rows(),
                    blocks.heldBytes() + life.sketchBytes(), updates, life.admitted(), life.evicted(), life.dropped());
        } finally {
            lock.readLock().unlock();
        }
    }

    /** @return rows pushes created so far (ids admitted) */
    public long admitted() {
        return readLocked(life::admitted);
    }

    /** @return rows removed so far, idle or to make room */
    public long evicted() {
        return readLocked(life::evicted);
    }

    /** @return row gradients dropped so far because their id was not admitted yet */
    public long droppedGradients() {
        return readLocked(life::dropped);
    }

    /** @return bytes this table holds: its blocks' capacity and its admission sketch */
    public long heldBytes() {
        return readLocked(() -> blocks.heldBytes() + life.sketchBytes());
    }

    private long readLocked(java.util.function.LongSupplier value) {
        lock.readLock().lock();
        try {
            return value.getAsLong();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** @return rows created so far */
    public long rows() {
        return readLocked(() -> blocks.rows());
    }

    /** @return bytes reserved by this table's blocks: its rows' capacity, at most twice its rows or one block more */
    public long bytes() {
        return readLocked(() -> blocks.heldBytes());
    }

    /** @return pushes applied so far */
    public long updates() {
        return readLocked(() -> updates);
    }
}
