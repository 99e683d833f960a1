package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Plain stochastic gradient descent: {@code p -= lr_t * g}. Keeps no state. */
public final class Sgd implements Optimizer {
    private final double lr;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate} and the schedule */
    public Sgd(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.schedule = settings.learningRateSchedule();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.NONE;
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        param.subi(gradient.muli(schedule.rate(step)));
    }

    @Override
    public int rowStateSlots() {
        return 0;
    }

    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        float rate = (float) schedule.rate(step);
        for (int k = 0; k < dim; k++) {
            row[offset + k] -= rate * gradient[gradientOffset + k];
        }
    }

    @Override
    public String describe() {
        return Descriptions.of("SGD", "lr=" + lr, schedule);
    }
}
