package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Stale synchronous parallel (SSP) with staleness bound s. Every push is applied on arrival with the
 * optimizer, like ASYNC (slice version + 1 per applied push). The server keeps each worker's clock
 * (last step it pushed + 1, 0 before any push; see {@link WorkerClocks}). A pull from worker w for
 * step t waits until the slowest clock is at least {@code t - s}, i.e. no worker runs more than s
 * steps ahead of the slowest; with s = 0 the workers move in lockstep. A worker's pushes must have
 * increasing steps, each at most s ahead of the slowest clock ({@code WRONG_STEP},
 * {@code DUPLICATE_PUSH}). Only live workers count ({@link LiveWorkers}): a rank the scheduler marked DEAD
 * or FINISHED holds nobody back and may not push until a worker joins at it again (at its clock), after
 * which it counts again and the others wait for it to come within s. Waiting pulls hold no thread and are
 * woken after the push released its slice locks or the live set changed. Thread-safe.
 */
public final class SspPolicy implements ConsistencyPolicy {
    private final int workers;
    private final int staleness;
    private final SliceUpdater updater;
    private final ReadinessWaiter readiness;
    private final WorkerClocks clocks;
    private final StalenessGate gate;
    private final LiveWorkers live;
    private final LongAdder pushes = new LongAdder();
    private final java.util.concurrent.atomic.AtomicLong maxServedGap = new java.util.concurrent.atomic.AtomicLong();

    /** @param context store, optimizer, worker count, pull deadline and staleness bound (&gt;= 0) */
    public SspPolicy(PolicyContext context) {
        if (context.staleness() < 0) {
            throw new IllegalArgumentException("staleness must be >= 0, got " + context.staleness());
        }
        this.workers = context.workers();
        this.staleness = context.staleness();
        this.updater = SliceUpdater.optimizing(context.optimizer(), context.listener());
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.clocks = new WorkerClocks(workers, "step");
        this.live = context.liveWorkers();
        this.gate = new StalenessGate(clocks, live);
        live.onChange(gate::wake);
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.SSP;
    }

    @Override
    public void accept(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        live.requireLive(push.sender());
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            clocks.advance(push.sender(), push.step(), staleness, live.live());
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
    public Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion) {
        return Mono.defer(() -> {
            SenderCheck.check(sender, workers);
            long minClock = minVersion - staleness;
            if (keys.length == 0 || gate.open(minClock)) {
                served(minVersion);
                return readiness.await(keys, 0, slice -> "not initialised");
            }
            return gate.await(minClock)
                    .then(Mono.defer(() -> {
                        served(minVersion);
                        return readiness.untimed(keys, 0);
                    }))
                    .timeout(readiness.timeout())
                    .onErrorMap(TimeoutException.class, e -> timedOut(sender, keys, minVersion, minClock));
        });
    }

    /** Records how far ahead of the slowest live worker a pull for {@code step} was let through. */
    private void served(long step) {
        long slowest = clocks.min(live.live());
        if (slowest != Long.MAX_VALUE) {
            maxServedGap.accumulateAndGet(step - slowest, Math::max);
        }
    }

    @Override
    public long maxStalenessServed() {
        return maxServedGap.get();
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
    public List<Long> workerClocks() {
        return clocks.snapshot();
    }

    /**
     * A worker that takes over a rank joins at the step after its predecessor's last push here; from then
     * on its clock counts again.
     */
    @Override
    public JoinAnswer join(JoinRequest request, int serverRank) {
        SenderCheck.check(request.rank(), workers);
        return gate.join(request, serverRank);
    }

    @Override
    public void restoreClocks(long step, long[] resume, long[] applied) {
        clocks.restore(step, resume, applied);
        gate.wake();
    }

    /** @return number of pulls waiting for a slower worker */
    int waitingPulls() {
        return gate.waiting();
    }

    private PsException timedOut(int sender, long[] keys, long step, long minClock) {
        if (gate.open(minClock)) {
            return readiness.timedOut(keys, 0, slice -> "not initialised");
        }
        return new PsException(ErrorCode.TIMEOUT, "pull of " + keys.length + " slice(s) not ready after "
                + readiness.timeout() + ": worker " + sender + " at step " + step + " waits for "
                + clocks.below(minClock, live.live()) + " (staleness bound " + staleness + ")");
    }
}
