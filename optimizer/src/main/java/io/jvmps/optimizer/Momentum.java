package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * SGD with momentum: {@code v = mu*v + g; p -= lr_t*v}, or with Nesterov {@code p -= lr_t*(g + mu*v)}
 * (using the updated v). One state slot: v.
 */
public final class Momentum implements Optimizer {
    private final double lr;
    private final double mu;
    private final boolean nesterov;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate}, {@code momentum}, {@code nesterov} and the schedule */
    public Momentum(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.mu = settings.momentum();
        this.nesterov = settings.nesterov();
        this.schedule = settings.learningRateSchedule();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.zeros(1, length);
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        double rate = schedule.rate(step);
        INDArray v = state.slot(0);
        v.muli(mu).addi(gradient);
        if (nesterov) {
            param.subi(gradient.addi(v.mul(mu)).muli(rate));
        } else {
            param.subi(v.mul(rate));
        }
    }

    @Override
    public int rowStateSlots() {
        return 1;
    }

    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        float rate = (float) schedule.rate(step);
        float m = (float) mu;
        for (int k = 0; k < dim; k++) {
            float g = gradient[gradientOffset + k];
            int vAt = offset + dim + k;
            float v = m * row[vAt] + g;
            row[vAt] = v;
            row[offset + k] -= rate * (nesterov ? g + m * v : v);
        }
    }

    @Override
    public String describe() {
        return Descriptions.of("MOMENTUM", "lr=" + lr + ", momentum=" + mu + ", nesterov=" + nesterov,
                schedule);
    }
}
