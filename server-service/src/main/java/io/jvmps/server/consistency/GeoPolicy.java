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
 * GEO-SGD (Paddle's geo mode): workers train locally and push parameter deltas, one push per round.
 * A push's values are added to the slices as they are (no optimizer, {@link SliceUpdater#adding}), and each
 * applied push advances the slice's version by one, so checkpoints are due every {@code every-steps} pushes
 * as in the other modes. The server keeps each worker's round clock (rounds it pushed
 * here; see {@link WorkerClocks}). A pull with {@code minVersion = r > 0} waits until every live worker
 * ({@link LiveWorkers}: a rank the scheduler marked DEAD or FINISHED holds nobody back) has pushed r
 * rounds here; 0 waits only for initialisation. A worker's rounds must increase ({@code WRONG_STEP},
 * {@code DUPLICATE_PUSH}); a dropped rank's pushes are refused until a worker joins at its round clock.
 * A push is taken whole or not at all.
 * Thread-safe.
 */
public final class GeoPolicy implements ConsistencyPolicy {
    private final int workers;
    private final ReadinessWaiter readiness;
    private final WorkerClocks rounds;
    private final LiveWorkers live;
    private final StalenessGate gate;
    private final SliceUpdater updater;
    private final LongAdder pushes = new LongAdder();

    /**
     * @param context store, worker count, live workers, pull deadline and the update listener (the checkpointer,
     *                told of every added delta as in the other modes); the optimizer is not used
     */
    public GeoPolicy(PolicyContext context) {
        this.workers = context.workers();
        this.readiness = new ReadinessWaiter(context.store(), context.pullTimeout());
        this.rounds = new WorkerClocks(workers, "round");
        this.live = context.liveWorkers();
        this.updater = SliceUpdater.adding(context.listener());
        this.gate = new StalenessGate(rounds, live);
        live.onChange(gate::wake);
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.GEO;
    }

    @Override
    public void accept(GradientPush push) {
        SenderCheck.check(push.sender(), workers);
        live.requireLive(push.sender());
        List<GradientPush.SliceGradient> locked = SliceLocks.lockAll(push.gradients());
        try {
            rounds.advance(push.sender(), push.step(), WorkerClocks.UNBOUNDED);
            boolean held = rounds.alreadyApplied(push.sender(), push.step());
            for (GradientPush.SliceGradient g : held ? List.<GradientPush.SliceGradient>of() : locked) {
                updater.apply(g.slice(), g.gradient());
            }
            pushes.increment();
        } finally {
            SliceLocks.unlockAll(locked);
        }
        gate.wake();
    }

    @Override
    public Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minRounds) {
        return Mono.defer(() -> {
            SenderCheck.check(sender, workers);
            if (keys.length == 0 || gate.open(minRounds)) {
                return readiness.await(keys, 0, slice -> "not initialised");
            }
            return gate.await(minRounds)
                    .then(Mono.defer(() -> readiness.untimed(keys, 0)))
                    .timeout(readiness.timeout())
                    .onErrorMap(TimeoutException.class, e -> timedOut(sender, keys, minRounds));
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
        return rounds.snapshot();
    }

    /**
     * A worker that takes over a rank joins at the round after its predecessor's last push here (its
     * unpushed local steps are lost); from then on its rounds are waited for again.
     */
    @Override
    public JoinAnswer join(JoinRequest request, int serverRank) {
        SenderCheck.check(request.rank(), workers);
        return gate.join(request, serverRank);
    }

    @Override
    public void restoreClocks(long round, long[] resume, long[] applied) {
        rounds.restore(round, resume, applied);
        gate.wake();
    }

    /** @return number of pulls waiting for a worker's rounds */
    int waitingPulls() {
        return gate.waiting();
    }

    private PsException timedOut(int sender, long[] keys, long minRounds) {
        if (gate.open(minRounds)) {
            return readiness.timedOut(keys, 0, slice -> "not initialised");
        }
        return new PsException(ErrorCode.TIMEOUT, "pull of " + keys.length + " slice(s) not ready after "
                + readiness.timeout() + ": worker " + sender + " waits for " + minRounds + " rounds from every "
                + "live worker; behind: " + rounds.below(minRounds, live.live()));
    }
}
