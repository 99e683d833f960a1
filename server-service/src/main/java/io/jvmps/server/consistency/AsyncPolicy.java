package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Asynchronous parallel (ASP): every push is applied on arrival, and each applied push advances the
 * slice's version by one. Pulls wait only for initialisation, never for a version. A worker's steps
 * must increase (a replayed or negative step is refused with {@code WRONG_STEP} or
 * {@code DUPLICATE_PUSH}, see {@link WorkerClocks}), but may skip. After a restore, a resent push the
 * restored slices already hold is acknowledged and not applied. A worker that takes over a rank joins
 * at the step after its predecessor's last push here. A push is still all-or-nothing across its slices.
 * Thread-safe.
 */
public final class AsyncPolicy implements ConsistencyPolicy {
    private final int workers;
    private final SliceUpdater updater;
    private final ReadinessWaiter readiness;
    private final LongAdder pushes = new LongAdder();
    private final WorkerClocks clocks;

    /** @param context store, optimizer, worker count and pull deadline */
    public AsyncPolicy(PolicyContext context) {
        this.workers = context.workers();
        this.updater = SliceUpdater.optimizing(context.optimizer(), context.listener());
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.clocks = new WorkerClocks(workers, "step");
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.ASYNC;
    }

    @Override
    public void accept(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            clocks.advance(push.sender(), push.step(), WorkerClocks.UNBOUNDED);
            if (!clocks.alreadyApplied(push.sender(), push.step())) {
                for (GradientPush.SliceGradient g : locked) {
                    updater.apply(g.slice(), g.gradient());
                }
            }
            pushes.increment();
        } finally {
            SliceLocks.unlockAll(locked);
        }
    }

    @Override
    public Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion) {
        return Mono.defer(() -> {
            SenderCheck.check(sender, workers);
            return readiness.await(keys, 0, slice -> "not initialised");
        });
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

    @Override
    public void restoreClocks(long step, long[] resume, long[] applied) {
        clocks.restore(step, resume, applied);
    }

    @Override
    public JoinAnswer join(JoinRequest request, int serverRank) {
        SenderCheck.check(request.rank(), workers);
        return clocks.join(request, serverRank);
    }
}
