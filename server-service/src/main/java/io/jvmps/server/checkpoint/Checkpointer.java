package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sharding.Slice;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.SliceUpdateListener;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerState;
import io.jvmps.server.store.DeclaredModel;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import io.jvmps.server.sparse.SparseRows;
import io.jvmps.server.sparse.SparseTables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Takes this server's checkpoints. Each slice is copied at the moment its version reaches the
 * checkpoint's step (right after that update, under the slice's lock), so in SYNC mode the copies
 * form an exact cut at that step; once every slice this server owns is copied, the sparse tables are
 * copied too (see {@link #recordSparse}) and a background thread writes the part. Steps are due every {@code everySteps}, and at the next step once {@code interval}
 * has passed. On {@link #close()} (graceful shutdown) the pending writes finish and a final
 * checkpoint is written when the slices are at one common step. Thread-safe.
 */
public final class Checkpointer implements SliceUpdateListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Checkpointer.class);

    /**
     * When checkpoints are due and how many are kept.
     *
     * @param everySteps checkpoint at multiples of this step; 0 = off
     * @param interval   checkpoint at the next step once this long passed; zero = off
     * @param keep       complete checkpoints kept
     */
    public record Schedule(long everySteps, Duration interval, int keep) {
    }

    private final CheckpointStore files;
    private final Schedule schedule;
    private final DenseStore store;
    private final DeclaredModel model;
    private final ServerIdentity identity;
    private final Optimizer optimizer;
    private final String optimizerName;
    private final Clock clock;
    private volatile io.jvmps.server.consistency.PushLedger ledger;
    private volatile SparseTables sparse;
    private volatile java.util.function.Supplier<List<Long>> workerClocks = List::of;
    private final ConcurrentHashMap<Long, ConcurrentHashMap<Long, SliceCopy>> pending = new ConcurrentHashMap<>();
    private final AtomicLong timeTarget = new AtomicLong(-1);
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "ps-checkpoint-writer");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong failures = new AtomicLong();
    private volatile Instant lastWritten;
    private volatile long lastStep = -1;
    private volatile Instant intervalStart;

    /** Wires the checkpointer; {@code optimizerName} is recorded in the files and checked on restore. */
    public Checkpointer(CheckpointStore files, Schedule schedule, DenseStore store, DeclaredModel model,
                        ServerIdentity identity, Optimizer optimizer, String optimizerName, Clock clock) {
        this.files = files;
        this.schedule = schedule;
        this.store = store;
        this.model = model;
        this.identity = identity;
        this.optimizer = optimizer;
        this.optimizerName = optimizerName;
        this.clock = clock;
        this.intervalStart = clock.instant();
    }

    /** @param pushes the push ledger whose entries go into every checkpoint part */
    public void recordLedger(io.jvmps.server.consistency.PushLedger pushes) {
        this.ledger = pushes;
    }

    /**
     * @param tables the sparse tables copied into every checkpoint part. Each copy is taken when this
     *               server's last slice reaches the checkpoint's step, under that slice's lock: in SYNC mode
     *               no worker can have pulled that step yet, so no sparse push of a later step is in it
     */
    public void recordSparse(SparseTables tables) {
        this.sparse = tables;
    }

    /**
     * @param clocks the consistency policy's worker clocks, copied into every part together with the last
     *               slice (under its lock: in ASYNC, SSP and GEO a push locks every slice it updates and
     *               advances its sender's clock under those locks, so the copy and the clocks agree)
     */
    public void recordClocks(java.util.function.Supplier<List<Long>> clocks) {
        this.workerClocks = clocks;
    }

    /** Records that the slices start from a restored checkpoint at {@code step} (not written again). */
    public void restoredAt(long step) {
        lastStep = Math.max(lastStep, step);
    }

    @Override
    public void updated(DenseSlice slice) {
        long version = slice.version();
        if (!due(version)) {
            return;
        }
        ShardMap map = model.shardMap();
        Slice placement = map == null ? null : map.slice(slice.key());
        if (placement == null || !identity.assigned()) {
            return;
        }
        ConcurrentHashMap<Long, SliceCopy> copies = pending.computeIfAbsent(version, v -> new ConcurrentHashMap<>());
        copies.put(slice.key(), copy(slice, placement));
        int owned = map.slicesOf(identity.rank()).size();
        if (copies.size() == owned && pending.remove(version, copies)) {
            timeTarget.compareAndSet(version, -1);
            List<SliceCopy> ready = new ArrayList<>(copies.values());
            List<SparseRows> tables = sparseCopies();
            List<Long> clocks = workerClocks.get();
            writer.execute(() -> write(version, map, ready, tables, clocks));
        }
    }

    /** Waits until the checkpoint parts already handed to the writer are on disk (at most 2 minutes). */
    public void drain() {
        try {
            writer.submit(() -> { }).get(2, TimeUnit.MINUTES);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // shutting down: close() finishes the writes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            log.warn("Pending checkpoint writes did not finish: {}", e.toString());
        }
    }

    /** Forgets copies taken for later steps: the slices were rolled back to {@code step}. */
    public void rolledBack(long step) {
        pending.clear();
        timeTarget.set(-1);
        lastStep = step;
        intervalStart = clock.instant();
    }

    /** @return the checkpoint files */
    public CheckpointStore files() {
        return files;
    }

    /** @return step of the newest checkpoint written or restored, -1 if none */
    public long lastStep() {
        return lastStep;
    }

    /** @return checkpoint parts this server failed to write (each logged at WARN; training went on) */
    public long failures() {
        return failures.get();
    }

    /** @return when this server last finished writing a checkpoint part, or null */
    public Instant lastWritten() {
        return lastWritten;
    }

    /** @return the directory */
    public String directory() {
        return files.root().toString();
    }

    /** Finishes pending writes, then writes a final checkpoint if the slices are at one common step. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(2, TimeUnit.MINUTES)) {
                log.warn("A checkpoint write did not finish within 2 minutes of shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        writeFinal();
    }

    private boolean due(long version) {
        if (schedule.everySteps() > 0 && version % schedule.everySteps() == 0) {
            return true;
        }
        if (schedule.interval().isZero()) {
            return false;
        }
        long target = timeTarget.get();
        if (target < 0 && !clock.instant().isBefore(intervalStart.plus(schedule.interval()))) {
            // the other slices are at most one step behind or level in SYNC: all of them will reach version + 1
            timeTarget.compareAndSet(-1, version + 1);
            intervalStart = clock.instant();
            return false;
        }
        return version == target;
    }

    private SliceCopy copy(DenseSlice slice, Slice placement) {
        OptimizerState state = slice.optimizerState(optimizer::newState);
        float[][] slots = new float[state.slots()][];
        for (int s = 0; s < slots.length; s++) {
            slots[s] = state.slot(s).toFloatVector();
        }
        return new SliceCopy(placement.paramIndex(), placement.offset(), slice.values().toFloatVector(), slots,
                slice.version());
    }

    private void writeFinal() {
        ShardMap map = model.shardMap();
        if (map == null || !identity.assigned()) {
            return;
        }
        List<SliceCopy> copies = new ArrayList<>();
        List<DenseSlice> locked = new ArrayList<>();
        List<Long> clocks;
        try {
            // ascending keys, the order pushes lock in, so this cannot deadlock with one
            for (Slice placement : map.slicesOf(identity.rank()).stream()
                    .sorted(Comparator.comparingLong(Slice::key)).toList()) {
                DenseSlice slice = store.get(placement.key());
                if (slice == null) {
                    return; // never initialised: nothing trained here
                }
                slice.lock();
                locked.add(slice);
                copies.add(copy(slice, placement));
            }
            clocks = workerClocks.get();
        } finally {
            locked.forEach(DenseSlice::unlock);
        }
        List<SparseRows> tables = sparseCopies();
        long step = copies.isEmpty() ? 0 : copies.get(0).version();
        if (copies.stream().anyMatch(c -> c.version() != step)) {
            log.info("Final checkpoint skipped: the slices are not at one common step (the job stopped mid-step); "
                    + "the checkpoint at step {} stands", lastStep);
            return;
        }
        if (step == 0 || step <= lastStep) {
            return;
        }
        write(step, map, copies, tables, clocks);
    }

    /**
     * The parts this server writes for others: a dense model of fewer elements than servers leaves some servers
     * without a slice, and they would never write a part, so no checkpoint would be complete. Their parts are
     * empty (no slice, no push ledger, no rows), so the lowest rank holding a slice writes them, as long as no
     * sparse table is declared (then every server holds rows of its own, and such a job is refused at declaration,
     * see {@link io.jvmps.server.store.DeclaredModel}).
     *
     * @return the ranks whose empty parts this server writes
     */
    private List<Integer> sliceLessRanks(ShardMap map, List<SparseRows> tables) {
        SparseTables declared = sparse;
        if (!tables.isEmpty() || (declared != null && !declared.all().isEmpty())) {
            return List.of();
        }
        List<Integer> empty = new ArrayList<>();
        int firstHolder = -1;
        for (int rank = 0; rank < map.servers(); rank++) {
            if (map.slicesOf(rank).isEmpty()) {
                empty.add(rank);
            } else if (firstHolder < 0) {
                firstHolder = rank;
            }
        }
        return firstHolder == identity.rank() ? empty : List.of();
    }

    private List<SparseRows> sparseCopies() {
        SparseTables tables = sparse;
        return tables == null ? List.of() : tables.copyAll();
    }

    private void write(long step, ShardMap map, List<SliceCopy> copies, List<SparseRows> tables, List<Long> clocks) {
        copies.sort(Comparator.comparingInt(SliceCopy::paramIndex).thenComparingLong(SliceCopy::offset));
        int slots = copies.isEmpty() ? 0 : copies.get(0).state().length;
        io.jvmps.server.consistency.PushLedger pushes = ledger;
        List<LedgerEntry> entries = pushes == null ? List.of() : pushes.snapshot().entrySet().stream()
                .filter(e -> e.getValue().step() < step)
                .map(e -> new LedgerEntry(e.getKey(), e.getValue().tag(), e.getValue().step(), e.getValue().ack()))
                .sorted(Comparator.comparingInt(LedgerEntry::sender))
                .toList();
        CheckpointPart part = new CheckpointPart(step, identity.rank(), map.servers(), optimizerName, slots,
                map.params(), copies, entries, tables, clocks);
        long start = System.nanoTime();
        try {
            PartManifest m = files.write(part);
            lastWritten = clock.instant();
            lastStep = Math.max(lastStep, step);
            log.info("Checkpoint step {}: wrote part {} of {} ({} slices, {} sparse rows, {} bytes) to {} in {} ms",
                    step, m.rank(), m.servers(), m.slices(), tables.stream().mapToLong(SparseRows::rows).sum(),
                    m.bytes(), files.root(), (System.nanoTime() - start) / 1_000_000);
            for (int rank : sliceLessRanks(map, tables)) {
                files.write(new CheckpointPart(step, rank, map.servers(), optimizerName, slots, map.params(), List.of(),
                        List.of(), List.of(), clocks));
                log.info("Checkpoint step {}: wrote the empty part {} of {} for the server the dense model gives no "
                        + "slice", step, rank, map.servers());
            }
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            log.warn("Checkpoint step {} could not be written to {} ({}); its partial files were removed, training "
                    + "goes on and the newest complete checkpoint stands (step {})", step, files.root(), e.toString(),
                    lastStep);
            return;
        }
        files.prune(schedule.keep());
    }
}
