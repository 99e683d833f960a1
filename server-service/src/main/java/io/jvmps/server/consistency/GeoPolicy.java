package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;

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
public final class GeoPolicy extends ClockedPolicy {

    /**
     * @param context store, worker count, live workers, pull deadline and the update listener (the checkpointer,
     *                told of every added delta as in the other modes); the optimizer is not used
     */
    public GeoPolicy(PolicyContext context) {
        super(context, "round", SliceUpdater.adding(context.listener()), WorkerClocks.UNBOUNDED);
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.GEO;
    }

    @Override
    protected void requireMayPush(int sender) {
        live.requireLive(sender);
    }

    /** A pull with {@code minVersion = r} waits until every live worker pushed r rounds here. */
    @Override
    protected long minClock(long minRounds) {
        return minRounds;
    }

    /**
     * A worker that takes over a rank joins at the round after its predecessor's last push here (its
     * unpushed local steps are lost); from then on its rounds are waited for again.
     */
    @Override
    protected JoinAnswer admit(JoinRequest request, int serverRank) {
        return gate.join(request, serverRank);
    }

    @Override
    protected PsException behind(int sender, long[] keys, long minRounds, long minClock) {
        return new PsException(ErrorCode.TIMEOUT, "pull of " + keys.length + " slice(s) not ready after "
                + readiness.timeout() + ": worker " + sender + " waits for " + minRounds + " rounds from every "
                + "live worker; behind: " + clocks.below(minRounds, live.live()));
    }
}
