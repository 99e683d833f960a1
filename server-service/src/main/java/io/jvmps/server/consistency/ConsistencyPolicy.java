package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * Decides when pushed gradients are applied and when pulled slices are ready. One implementation
 * per {@link ConsistencyMode}, chosen by {@link PolicyFactory}. Implementations are thread-safe.
 */
public interface ConsistencyPolicy {

    /** @return the mode this policy implements */
    ConsistencyMode mode();

    /**
     * Accepts a validated push: either every slice gradient of it is taken, or none is. The policy checks the
     * sender's rank (the push's one sender check), as it does a join's.
     *
     * @param push gradients (GEO: parameter deltas) of one worker for one step, each slice at most once
     * @throws PsException e.g. {@code WRONG_STEP}, {@code DUPLICATE_PUSH}, {@code INVALID_ARGUMENT};
     *                     nothing changed then
     */
    void accept(GradientPush push);

    /**
     * @param sender     rank of the pulling worker, checked by the caller (the pull handler's one sender check)
     * @param keys       slice keys, in answer order
     * @param minVersion the pull's {@code minVersion}; its meaning is the mode's (SYNC: slice version;
     *                   SSP: the worker's step; GEO: rounds every live worker must have pushed; ASYNC: ignored)
     * @return the slices, in {@code keys} order, once all are initialised and ready; fails with
     *         {@code TIMEOUT} after the pull deadline, saying what was missing
     */
    Mono<List<DenseSlice>> awaitReady(int sender, long[] keys, long minVersion);

    /** @return number of slice updates applied so far (one per slice per applied update) */
    long updatesApplied();

    /** @return number of pushes accepted so far */
    long pushesAccepted();

    /** @return how long synchronous steps waited for their last gradient ({@link StepWaits#NONE} without a barrier) */
    default StepWaits stepWaits() {
        return StepWaits.NONE;
    }

    /**
     * @return SSP: the largest gap seen so far between the step of a served pull and the slowest live
     *         worker's clock at that moment (never above the staleness bound); 0 in the other modes
     */
    default long maxStalenessServed() {
        return 0;
    }

    /**
     * @return each worker's clock on this server, by rank (ASYNC, SSP: last pushed step + 1; GEO: last
     *         pushed round + 1; 0 before the first push), or an empty list where the mode keeps none (SYNC)
     */
    default List<Long> workerClocks() {
        return List.of();
    }

    /**
     * Forgets gradients collected for steps not applied yet (after a rollback to a checkpoint). The
     * caller holds the locks of every slice.
     */
    default void discardPending() {
    }

    /**
     * After this server's slices were restored from a checkpoint (at start-up or by a rollback): puts the
     * workers' clocks back so each worker resumes its own schedule where the checkpoint has it, and pushes
     * the restored slices already hold are acknowledged without being applied twice. SYNC ignores it (its
     * checkpoint is a cut at one step). The caller holds the locks of every slice.
     *
     * @param step    the checkpoint's step; every clock is set to it when {@code resume} does not fit this
     *                job's worker count (e.g. a checkpoint written before clocks were kept)
     * @param resume  per worker rank, the step (GEO: round) it resumes at
     * @param applied per worker rank, the first step (GEO: round) whose push these slices do not hold
     */
    default void restoreClocks(long step, long[] resume, long[] applied) {
    }

    /**
     * A worker asks to be expected from a step on (see {@link JoinRequest}). SYNC: accepted unless this
     * server already applied that step; ASYNC and SSP: accepted from the rank's clock on (the step after
     * its predecessor's last push), which the answer carries; GEO: the same in rounds.
     *
     * @param serverRank this server's rank, for the answer
     */
    JoinAnswer join(JoinRequest request, int serverRank);
}
