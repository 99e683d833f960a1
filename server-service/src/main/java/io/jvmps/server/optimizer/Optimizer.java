package io.jvmps.server.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Applies one gradient to one parameter slice, in place. Implementations are stateless and
 * thread-safe; the per-slice state (momentum, moments, accumulators) lives in an {@link OptimizerState}
 * that the caller keeps beside the slice and guards with the slice's lock. Every implementation takes
 * its learning rate for an update from its {@link io.jvmps.server.optimizer.schedule.LearningRateSchedule}.
 */
public interface Optimizer {

    /**
     * @param length number of elements of the slice
     * @return fresh state for a slice of that length
     */
    OptimizerState newState(int length);

    /**
     * Updates {@code param} in place.
     *
     * @param param    the slice's values, float32, length n
     * @param gradient the gradient, same length; may be overwritten (the caller owns it)
     * @param state    the slice's state from {@link #newState(int)}
     * @param step     number of updates applied to this slice including this one, starting at 1; also
     *                 the update count given to the learning-rate schedule
     */
    void apply(INDArray param, INDArray gradient, OptimizerState state, long step);

    /** @return a short description with hyper-parameters and schedule, for status pages and logs */
    String describe();
}
