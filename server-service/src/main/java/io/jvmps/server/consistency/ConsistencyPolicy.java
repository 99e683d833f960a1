package io.jvmps.server.consistency;

import io.jvmps.common.protocol.PsException;
import io.jvmps.server.store.DenseSlice;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * Decides when pushed gradients are applied and when pulled slices are ready. One implementation
 * per {@link ConsistencyMode}. Implementations are thread-safe.
 */
public interface ConsistencyPolicy {

    /** @return the mode this policy implements */
    ConsistencyMode mode();

    /**
     * Accepts a validated push: either every slice gradient of it is taken, or none is.
     *
     * @param push gradients of one worker for one step, each slice at most once
     * @throws PsException e.g. {@code WRONG_STEP}, {@code DUPLICATE_PUSH}, {@code INVALID_ARGUMENT};
     *                     nothing changed then
     */
    void accept(GradientPush push);

    /**
     * @param keys       slice keys, in answer order
     * @param minVersion version every slice must reach (sync mode)
     * @return the slices, in {@code keys} order, once all are initialised and ready; fails with
     *         {@code TIMEOUT} after the pull deadline, naming the slices and missing workers
     */
    Mono<List<DenseSlice>> awaitReady(long[] keys, long minVersion);

    /** @return number of slice updates applied so far (one per slice per applied step) */
    long updatesApplied();

    /** @return number of pushes accepted so far */
    long pushesAccepted();
}
