package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;

/**
 * Asynchronous parallel (ASP): every push is applied on arrival, and each applied push advances the
 * slice's version by one. Pulls wait only for initialisation, never for a version. A worker's steps
 * must increase (a replayed or negative step is refused with {@code WRONG_STEP} or
 * {@code DUPLICATE_PUSH}, see {@link WorkerClocks}), but may skip. After a restore, a resent push the
 * restored slices already hold is acknowledged and not applied. A worker that takes over a rank joins
 * at the step after its predecessor's last push here. A push is still all-or-nothing across its slices.
 * Thread-safe.
 */
public final class AsyncPolicy extends ClockedPolicy {

    /** @param context store, optimizer, worker count and pull deadline */
    public AsyncPolicy(PolicyContext context) {
        super(context, "step", SliceUpdater.optimizing(context.optimizer(), context.listener()),
                WorkerClocks.UNBOUNDED);
    }

    @Override
    public ConsistencyMode mode() {
        return ConsistencyMode.ASYNC;
    }

    /** Any rank of the job may push: nobody waits for another's clock, so a dropped rank holds nothing back. */
    @Override
    protected void requireMayPush(int sender) {
    }

    /** A pull never waits for a clock. */
    @Override
    protected long minClock(long minVersion) {
        return Long.MIN_VALUE;
    }

    /** At the step after the rank's last push here, without the live set (no pull waits for it). */
    @Override
    protected JoinAnswer admit(JoinRequest request, int serverRank) {
        return clocks.join(request, serverRank);
    }

    @Override
    protected PsException behind(int sender, long[] keys, long minVersion, long minClock) {
        throw new IllegalStateException("an ASYNC pull never waits at the gate");
    }
}
