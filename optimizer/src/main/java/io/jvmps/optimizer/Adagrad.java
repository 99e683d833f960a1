package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Adagrad (Duchi et al.): {@code acc += g^2; p -= lr_t * g / (sqrt(acc) + eps)}, with the accumulator
 * starting at {@code initialAccumulator} (as in TensorFlow and Paddle). One state slot: acc.
 */
public final class Adagrad implements Optimizer {
    private final double lr;
    private final double epsilon;
    private final double initialAccumulator;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate}, {@code epsilon}, {@code initialAccumulator} and the schedule */
    public Adagrad(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.epsilon = settings.epsilon();
        this.initialAccumulator = settings.initialAccumulator();
        this.schedule = settings.learningRateSchedule();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.filled(1, length, initialAccumulator);
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        INDArray acc = state.slot(0);
        acc.addi(gradient.mul(gradient));
        INDArray denominator = Transforms.sqrt(acc, true).addi(epsilon);
        param.subi(gradient.divi(denominator).muli(schedule.rate(step)));
    }

    @Override
    public int rowStateSlots() {
        return 1;
    }

    @Override
    public float rowStateInitialValue() {
        return (float) initialAccumulator;
    }

    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        float rate = (float) schedule.rate(step);
        float eps = (float) epsilon;
        for (int k = 0; k < dim; k++) {
            float g = gradient[gradientOffset + k];
            int accAt = offset + dim + k;
            float acc = row[accAt] + g * g;
            row[accAt] = acc;
            row[offset + k] -= rate * g / ((float) Math.sqrt(acc) + eps);
        }
    }

    @Override
    public String describe() {
        return Descriptions.of("ADAGRAD",
                "lr=" + lr + ", initial-accumulator=" + initialAccumulator + ", epsilon=" + epsilon, schedule);
    }
}
