package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;

import java.util.concurrent.atomic.AtomicLong;

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
public final class SspPolicy extends ClockedPolicy {
    private final int staleness;
    private final AtomicLong maxServedGap = new AtomicLong();

    /** @param context store, optimizer, worker count, pull deadline and staleness bound (&gt;= 0) */
    public SspPolicy(PolicyContext context) {
        super(context, "step", SliceUpdater.optimizing(context.optimizer(), context.listener()),
                requireBound(context.staleness()));
        this.staleness = context.staleness();
    }

    private static int requireBound(int staleness) {
        if (staleness < 0) {
            throw new IllegalArgumentException("staleness must be >= 0, got " + staleness);
        }
        return staleness;
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.SSP;
    }

    @Override
    protected void requireMayPush(int sender) {
        live.requireLive(sender);
    }

    /** A pull for step t waits for the slowest live clock to reach {@code t - s}. */
    @Override
    protected long minClock(long step) {
        return step - staleness;
    }

    /** Records how far ahead of the slowest live worker a pull for {@code step} was let through. */
    @Override
    protected void served(long step) {
        long slowest = clocks.min(live.live());
        if (slowest != Long.MAX_VALUE) {
            maxServedGap.accumulateAndGet(step - slowest, Math::max);
        }
    }

    @Override
    public long maxStalenessServed() {
        return maxServedGap.get();
    }

    /**
     * A worker that takes over a rank joins at the step after its predecessor's last push here; from then
     * on its clock counts again.
     */
    @Override
    protected JoinAnswer admit(JoinRequest request, int serverRank) {
        return gate.join(request, serverRank);
    }

    @Override
    protected PsException behind(int sender, long[] keys, long step, long minClock) {
        return new PsException(ErrorCode.TIMEOUT, "pull of " + keys.length + " slice(s) not ready after "
                + readiness.timeout() + ": worker " + sender + " at step " + step + " waits for "
                + clocks.below(minClock, live.live()) + " (staleness bound " + staleness + ")");
    }
}
