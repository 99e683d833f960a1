package io.jvmps.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Applies one gradient to one parameter slice, in place. Implementations are stateless and
 * thread-safe; the per-slice state (momentum, moments, accumulators) lives in an {@link OptimizerState}
 * that the caller keeps beside the slice and guards with the slice's lock. Every implementation takes
 * its learning rate for an update from its {@link io.jvmps.common.optimizer.schedule.LearningRateSchedule}.
 */
public interface Optimizer {

    /**
     * @param length number of elements of the slice
     * @return fresh state for a slice of that length
     */
    OptimizerState newState(int length);

    /**
     * The update itself, element by element in one pass over the span (the parameter, the gradient and
     * the state slots are each read once and written once): the one implementation of this optimizer's
     * arithmetic, for dense slices and sparse rows alike. Spans over disjoint ranges of one slice may be
     * updated concurrently.
     *
     * @param span the elements to update; the gradient is not modified
     * @param step number of updates applied to this slice (or row) including this one, starting at 1; also
     *             the update count given to the learning-rate schedule
     */
    void update(UpdateSpan span, long step);

    /**
     * Updates the whole of {@code param} in place ({@link #update} over every element).
     *
     * @param param    the slice's values, a whole 1-D float32 array of length n (not a view)
     * @param gradient the gradient, same length; not modified
     * @param state    the slice's state from {@link #newState(int)}
     * @param step     number of updates applied to this slice including this one, starting at 1; also
     *                 the update count given to the learning-rate schedule
     */
    default void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        update(UpdateSpan.dense(param, gradient, state, 0, (int) param.length()), step);
    }

    /**
     * Number of state vectors a sparse-table row keeps beside its values (0 for SGD, 1 for MOMENTUM and
     * ADAGRAD, 2 for ADAM and FTRL): the row form of {@link #newState(int)}'s slots.
     */
    int rowStateSlots();

    /**
     * @param dim values per row
     * @return floats of optimizer state a sparse-table row keeps after its values: {@code rowStateSlots() x dim} for
     *         the per-element optimizers, 1 for {@link RowwiseAdagrad}
     */
    default int rowStateFloats(int dim) {
        return rowStateSlots() * dim;
    }

    /** @return true for an optimizer of sparse-table rows only, which cannot update a dense slice */
    default boolean rowsOnly() {
        return false;
    }

    /** @return the value every state element of a new row starts at (ADAGRAD's initial accumulator, else 0) */
    default float rowStateInitialValue() {
        return 0f;
    }

    /**
     * The row form of {@link #apply}, used by sparse tables: the same update, element by element, on one
     * row held in a flat array as {@code [values (dim) | state slot 0 (dim) | state slot 1 (dim) ...]}.
     * Only this row and its state change ("lazy" for ADAM and MOMENTUM: rows a push does not touch
     * keep their moments as they are).
     *
     * @param row            flat storage holding the row
     * @param offset         index of the row's first value in {@code row}
     * @param dim            values per row
     * @param gradient       the row's gradient, {@code dim} floats from {@code gradientOffset}; not modified
     * @param gradientOffset index of the gradient's first element
     * @param step           updates applied to this row including this one, from 1 (bias correction and schedule)
     */
    default void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        update(UpdateSpan.localRow(row, offset, dim, rowStateSlots(), gradient, gradientOffset), step);
    }

    /** @return a short description with hyper-parameters and schedule, for status pages and logs */
    String describe();
}
