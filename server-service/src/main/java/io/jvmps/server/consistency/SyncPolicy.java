package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import reactor.core.publisher.Mono;

import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Bulk-synchronous parallel (BSP): for each slice, step t (= the slice's current version) collects
 * one gradient from each live worker ({@link LiveWorkers}: every rank except those the scheduler
 * marked DEAD or FINISHED); when the last arrives the optimizer is applied once with their average
 * and the version becomes t+1, which wakes pulls waiting for it. When a worker is dropped, steps that
 * only waited for it are applied at once with the gradients they have, so the survivors go on.
 * A push for another step is {@link ErrorCode#WRONG_STEP}; a second push of the same worker for the
 * same slice and step is {@link ErrorCode#DUPLICATE_PUSH}. Thread-safe: each slice's accumulator is
 * guarded by that slice's lock, and a push locks all its slices (in key order) so it is taken whole
 * or not at all.
 */
public final class SyncPolicy implements SliceWisePolicy {
    private final int workers;
    private final SliceUpdater updater;
    private final ReadinessWaiter readiness;
    private final ConcurrentHashMap<Long, StepAccumulator> pending = new ConcurrentHashMap<>();
    private final LongAdder pushes = new LongAdder();
    private final LiveWorkers live;
    private final DenseStore store;
    private final LongSupplier ticker;
    private final StepWaits stepWaits = new StepWaits();

    /** @param context store, optimizer, worker count and pull deadline */
    public SyncPolicy(PolicyContext context) {
        this(context, System::nanoTime);
    }

    /** @param ticker nanosecond ticks, for {@link #stepWaits()} */
    SyncPolicy(PolicyContext context, LongSupplier ticker) {
        this.ticker = ticker;
        this.workers = context.workers();
        this.updater = SliceUpdater.optimizing(context.optimizer(), context.listener());
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.live = context.liveWorkers();
        this.store = context.store();
        live.onChange(this::applyCompleteSteps);
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.SYNC;
    }

    @Override
    public void accept(GradientPush push) {
        take(push);
        pushes.increment();
    }

    /** One slice at a time: each is validated and accumulated (applied once its step is complete) on its own. */
    @Override
    public void acceptSlice(GradientPush part, boolean firstOfPush) {
        if (part.gradients().size() != 1) {
            throw new IllegalArgumentException("a part carries one slice, got " + part.gradients().size());
        }
        take(part);
        if (firstOfPush) {
            pushes.increment();
        }
    }

    private void take(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        live.requireLive(push.sender());
        long joined = live.joinedAt(push.sender());
        if (push.step() < joined) {
            throw new PsException(ErrorCode.WRONG_STEP, "worker " + push.sender() + " joined at step " + joined
                    + " and cannot push step " + push.step());
        }
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            for (GradientPush.SliceGradient g : locked) {
                validate(g.slice(), push);
            }
            for (GradientPush.SliceGradient g : locked) {
                accumulate(g, push);
            }
        } finally {
            SliceLocks.unlockAll(locked);
        }
    }

    @Override
    public Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion) {
        return Mono.defer(() -> readiness.await(keys, minVersion, this::describeWaiting));
    }

    @Override
    public StepWaits stepWaits() {
        return stepWaits;
    }

    @Override
    public long updatesApplied() {
        return updater.applied();
    }

    @Override
    public long pushesAccepted() {
        return pushes.sum();
    }

    @Override
    public void discardPending() {
        pending.clear();
        store.slices().stream().mapToLong(DenseSlice::version).min().ifPresent(live::rewindTo);
    }

    private void validate(DenseSlice slice, GradientPush push) {
        long at = slice.version();
        if (push.step() != at) {
            throw new PsException(ErrorCode.WRONG_STEP, "slice " + SliceKey.describe(slice.key()) + " is at step " + at
                    + " but worker " + push.sender() + " pushed step " + push.step()
                    + (push.step() < at ? " (already applied)" : " (ahead of the slowest worker)"));
        }
        StepAccumulator acc = pending.get(slice.key());
        if (acc != null && acc.step() == at && acc.has(push.sender())) {
            throw new PsException(ErrorCode.DUPLICATE_PUSH, "worker " + push.sender() + " already pushed slice "
                    + SliceKey.describe(slice.key()) + " for step " + at);
        }
    }

    private void accumulate(GradientPush.SliceGradient g, GradientPush push) {
        DenseSlice slice = g.slice();
        StepAccumulator acc = pending.compute(slice.key(),
                (k, old) -> old != null && old.step() == push.step() ? old
                        : new StepAccumulator(push.step(), ticker.getAsLong()));
        if (acc.add(push.sender(), g.gradient())) {
            slice.recycle(g.gradient());
        }
        if (acc.covers(live.expectedAt(acc.step()))) {
            complete(slice, acc);
        }
    }

    private void complete(DenseSlice slice, StepAccumulator acc) {
        pending.remove(slice.key());
        stepWaits.record(ticker.getAsLong() - acc.startedAt());
        updater.apply(slice, acc.mean());
    }

    /**
     * Makes a worker expected from {@code request.step()} on, provided no slice of this server has applied
     * that step yet (checked and recorded under every slice's lock, so no step slips past in between).
     */
    @Override
    public JoinAnswer join(JoinRequest request, int serverRank) {
        SenderCheck.check(request.rank(), workers);
        if (request.step() < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "join step must be >= 0, got " + request.step());
        }
        List<DenseSlice> slices = store.slices().stream().sorted(Comparator.comparingLong(DenseSlice::key)).toList();
        if (slices.isEmpty()) {
            throw new PsException(ErrorCode.NOT_INITIALIZED, "this server holds no slices yet; join after init");
        }
        List<CompletableFuture<Void>> wake = new ArrayList<>();
        int locked = 0;
        try {
            for (DenseSlice s : slices) {
                s.lock();
                locked++;
            }
            long max = slices.stream().mapToLong(DenseSlice::version).max().orElse(0);
            if (max > request.step()) {
                return new JoinAnswer(serverRank, false, max);
            }
            live.join(request.rank(), request.nodeId(), request.step());
            return new JoinAnswer(serverRank, true, max);
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                slices.get(i).unlock(wake);
            }
            wake.forEach(f -> f.complete(null));
        }
    }

    /** After a worker was dropped or joined: applies every pending step that now has all live workers' gradients. */
    private void applyCompleteSteps() {
        for (Long key : List.copyOf(pending.keySet())) {
            DenseSlice slice = store.get(key);
            if (slice == null) {
                continue;
            }
            slice.lock();
            try {
                StepAccumulator acc = pending.get(key);
                if (acc != null && acc.step() == slice.version() && acc.count() > 0
                        && acc.covers(live.expectedAt(acc.step()))) {
                    complete(slice, acc);
                }
            } finally {
                slice.unlock();
            }
        }
    }

    private String describeWaiting(DenseSlice slice) {
        StepAccumulator acc = pending.get(slice.key());
        long step = slice.version();
        BitSet waiting = live.expectedAt(step);
        if (acc != null && acc.step() == step) {
            waiting.andNot(acc.pushed());
        }
        String missing = waiting.toString()
                .replace('{', '[').replace('}', ']');
        return "step " + step + " waits for worker ranks " + missing;
    }
}
