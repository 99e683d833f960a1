package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

/**
 * Row-wise Adagrad, the usual optimizer of large embedding tables (FBGEMM's and TorchRec's
 * {@code EXACT_ROWWISE_ADAGRAD}): one accumulator per row instead of one per element,
 * {@code acc += mean_k(g_k^2); p_k -= lr_t * g_k / (sqrt(acc) + eps)}, the accumulator starting at
 * {@code initialAccumulator}. A row of {@code dim} values keeps 1 float of state where per-element Adagrad keeps
 * {@code dim}. Sparse tables only: a dense slice has no rows, so {@link #update} and {@link #newState} refuse.
 * Stateless and thread-safe.
 */
public final class RowwiseAdagrad implements Optimizer {
    private final double lr;
    private final double epsilon;
    private final double initialAccumulator;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate}, {@code epsilon}, {@code initialAccumulator} and the schedule */
    public RowwiseAdagrad(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.epsilon = settings.epsilon();
        this.initialAccumulator = settings.initialAccumulator();
        this.schedule = settings.learningRateSchedule();
    }

    /** @throws UnsupportedOperationException always: row-wise state needs rows */
    @Override
    public OptimizerState newState(int length) {
        throw new UnsupportedOperationException("ROWWISE_ADAGRAD updates sparse table rows only, not dense slices");
    }

    /** @throws UnsupportedOperationException always: row-wise state needs rows */
    @Override
    public void update(UpdateSpan span, long step) {
        throw new UnsupportedOperationException("ROWWISE_ADAGRAD updates sparse table rows only, not dense slices");
    }

    @Override
    public int rowStateSlots() {
        return 0;
    }

    /** @return 1: the row's accumulator */
    @Override
    public int rowStateFloats(int dim) {
        return 1;
    }

    @Override
    public float rowStateInitialValue() {
        return (float) initialAccumulator;
    }

    /** The row's accumulator is the float after its {@code dim} values. */
    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        float squares = 0f;
        for (int k = 0; k < dim; k++) {
            float g = gradient[gradientOffset + k];
            squares += g * g;
        }
        float acc = row[offset + dim] + squares / dim;
        row[offset + dim] = acc;
        float scale = (float) schedule.rate(step) / ((float) Math.sqrt(acc) + (float) epsilon);
        for (int k = 0; k < dim; k++) {
            row[offset + k] -= scale * gradient[gradientOffset + k];
        }
    }

    @Override
    public boolean rowsOnly() {
        return true;
    }

    @Override
    public String describe() {
        return Descriptions.of("ROWWISE_ADAGRAD",
                "lr=" + lr + ", initial-accumulator=" + initialAccumulator + ", epsilon=" + epsilon, schedule);
    }
}
