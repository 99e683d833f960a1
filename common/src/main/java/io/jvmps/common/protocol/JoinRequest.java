package io.jvmps.common.protocol;

/**
 * A worker asking a server (route {@link Routes#JOIN}) to be expected from {@code step} on: sent by every
 * worker before its first step, and by a worker that took over the rank of a dead one to join the running
 * job. In SYNC a server accepts when none of its slices has applied {@code step} yet (every version is
 * {@code <= step}); in ASYNC and SSP when {@code step} is at or after the rank's clock (its predecessor's
 * last pushed step + 1); in GEO the same with rounds (the step is a round). Otherwise it answers its newest
 * version (SYNC) or the clock (ASYNC, SSP, GEO) and the worker asks again with that.
 *
 * @param rank   the worker's rank, in {@code [0, workers)}
 * @param nodeId the worker's node id from the scheduler (a later DEAD mark of an older node at the same
 *               rank then does not drop it)
 * @param step   the first step the worker will push, {@code >= 0}
 */
public record JoinRequest(int rank, String nodeId, long step) {
}
