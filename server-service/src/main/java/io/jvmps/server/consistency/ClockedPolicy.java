package io.jvmps.server.consistency;

import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The skeleton ASYNC, SSP and GEO share: every push is applied on arrival through one {@link SliceUpdater}
 * (all its slices under their locks, or none), each worker's pushes advance its {@link WorkerClocks clock}, a
 * resent push the restored slices already hold is acknowledged without being applied twice, and a pull waits at
 * the {@link StalenessGate} until the slowest live worker's clock reaches the value the mode derives from the
 * pull's {@code minVersion}, then for its slices' initialisation, all within the pull deadline. The modes differ
 * only in the hooks: the bound on how far a push may run ahead, whether a dropped rank may push, how a pull's
 * {@code minVersion} maps to a clock, how a rank joins, and what a timed-out pull says. Thread-safe.
 */
abstract sealed class ClockedPolicy implements ConsistencyPolicy permits AsyncPolicy, SspPolicy, GeoPolicy {
    private static final java.util.function.Function<DenseSlice, String> NOT_INITIALISED = slice -> "not initialised";

    /** Number of worker ranks of the job. */
    protected final int workers;
    /** Each worker's clock on this server. */
    protected final WorkerClocks clocks;
    /** The ranks whose clocks count. */
    protected final LiveWorkers live;
    /** Pulls waiting for the slowest live clock. */
    protected final StalenessGate gate;
    /** The pull deadline and the wait for initialisation. */
    protected final ReadinessWaiter readiness;
    private final SliceUpdater updater;
    private final int bound;
    private final LongAdder pushes = new LongAdder();

    /**
     * @param context the store, worker count, live workers and pull deadline
     * @param unit    what a push's step counts, for messages ("step" or "round")
     * @param updater how a push changes a slice (the optimizer's rule, or GEO's addition)
     * @param bound   how many steps a push may be ahead of the slowest live clock; {@link WorkerClocks#UNBOUNDED}
     */
    ClockedPolicy(PolicyContext context, String unit, SliceUpdater updater, int bound) {
        this.workers = context.workers();
        this.clocks = new WorkerClocks(workers, unit);
        this.live = context.liveWorkers();
        this.gate = new StalenessGate(clocks, live);
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.updater = updater;
        this.bound = bound;
        live.onChange(gate::wake);
    }

    /** Refuses a push from a rank that may not push now; nothing changed then. */
    protected abstract void requireMayPush(int sender);

    /** @return the slowest live clock a pull with {@code minVersion} waits for ({@link Long#MIN_VALUE}: none) */
    protected abstract long minClock(long minVersion);

    /** Called when a pull for {@code minVersion} is let through the gate (SSP records the staleness served). */
    protected void served(long minVersion) {
    }

    /** @return the answer to a worker taking over {@code request.rank()}, the rank checked */
    protected abstract JoinAnswer admit(JoinRequest request, int serverRank);

    /** @return the {@code TIMEOUT} error of a pull still held at the gate, naming whom it waits for */
    protected abstract PsException behind(int sender, long[] keys, long minVersion, long minClock);

    @Override
    public final void accept(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        requireMayPush(push.sender());
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            clocks.advance(push.sender(), push.step(), bound, live.live());
            if (!clocks.alreadyApplied(push.sender(), push.step())) {
                for (GradientPush.SliceGradient g : locked) {
                    updater.apply(g.slice(), g.gradient());
                }
            }
            pushes.increment();
        } finally {
            SliceLocks.unlockAll(locked);
        }
        gate.wake();
    }

    @Override
    public final Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion) {
        return Mono.defer(() -> {
            long minClock = minClock(minVersion);
            if (keys.length == 0 || minClock == Long.MIN_VALUE || gate.open(minClock)) {
                served(minVersion);
                return readiness.await(keys, 0, NOT_INITIALISED);
            }
            return gate.await(minClock)
                    .then(Mono.defer(() -> {
                        served(minVersion);
                        return readiness.untimed(keys, 0);
                    }))
                    .timeout(readiness.timeout())
                    .onErrorMap(TimeoutException.class, e -> gate.open(minClock)
                            ? readiness.timedOut(keys, 0, NOT_INITIALISED)
                            : behind(sender, keys, minVersion, minClock));
        });
    }

    @Override
    public final JoinAnswer join(JoinRequest request, int serverRank) {
        SenderCheck.check(request.rank(), workers);
        return admit(request, serverRank);
    }

    @Override
    public final void restoreClocks(long step, long[] resume, long[] applied) {
        clocks.restore(step, resume, applied);
        gate.wake();
    }

    @Override
    public final long updatesApplied() {
        return updater.applied();
    }

    @Override
    public final long pushesAccepted() {
        return pushes.sum();
    }

    @Override
    public final List<Long> workerClocks() {
        return clocks.snapshot();
    }

    /** @return number of pulls waiting at the gate */
    final int waitingPulls() {
        return gate.waiting();
    }
}
