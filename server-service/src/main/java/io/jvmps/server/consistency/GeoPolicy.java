package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * GEO-SGD (Paddle's geo mode): workers train locally and push parameter deltas, one push per round.
 * A push's values are added to the slices as they are (no optimizer), and each applied push
 * advances the slice's version by one, so after every worker pushed r rounds a slice is at version
 * {@code workers * r}. A pull waits until every slice has {@code version >= minVersion} (0: only for
 * initialisation). A worker's rounds must increase ({@code WRONG_STEP}, {@code DUPLICATE_PUSH}). A
 * push is taken whole or not at all. Thread-safe.
 */
public final class GeoPolicy implements ConsistencyPolicy {
    private final int workers;
    private final ReadinessWaiter readiness;
    private final WorkerClocks rounds;
    private final LongAdder applied = new LongAdder();
    private final LongAdder pushes = new LongAdder();

    /** @param context store, worker count and pull deadline (the optimizer is not used) */
    public GeoPolicy(PolicyContext context) {
        this.workers = context.workers();
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.rounds = new WorkerClocks(workers, "round");
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.GEO;
    }

    @Override
    public void accept(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            rounds.advance(push.sender(), push.step(), WorkerClocks.UNBOUNDED);
            for (GradientPush.SliceGradient g : locked) {
                DenseSlice slice = g.slice();
                slice.values().addi(g.gradient());
                slice.advanceVersion();
                applied.increment();
            }
            pushes.increment();
        } finally {
            SliceLocks.unlockAll(locked);
        }
    }

    @Override
    public Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion) {
        return readiness.await(keys, minVersion,
                slice -> "rounds pushed here by worker rank: " + rounds.snapshot());
    }

    @Override
    public long updatesApplied() {
        return applied.sum();
    }

    @Override
    public long pushesAccepted() {
        return pushes.sum();
    }

    @Override
    public List<Long> workerClocks() {
        return rounds.snapshot();
    }
}
