package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * Adam (Kingma and Ba) with bias correction:
 * {@code m = b1*m + (1-b1)*g; v = b2*v + (1-b2)*g^2; p -= lr_t * mhat / (sqrt(vhat) + eps)} with
 * {@code mhat = m / (1-b1^t)}, {@code vhat = v / (1-b2^t)}. Two state slots: m and v.
 */
public final class Adam implements Optimizer {
    private final double lr;
    private final double beta1;
    private final double beta2;
    private final double epsilon;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate}, {@code beta1}, {@code beta2}, {@code epsilon} and the schedule */
    public Adam(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.beta1 = settings.beta1();
        this.beta2 = settings.beta2();
        this.epsilon = settings.epsilon();
        this.schedule = settings.learningRateSchedule();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.zeros(2, length);
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        INDArray m = state.slot(0);
        INDArray v = state.slot(1);
        m.muli(beta1).addi(gradient.mul(1 - beta1));
        v.muli(beta2).addi(gradient.muli(gradient).muli(1 - beta2));
        double bias1 = 1 - Math.pow(beta1, step);
        double bias2 = 1 - Math.pow(beta2, step);
        INDArray denominator = Transforms.sqrt(v, true).divi(Math.sqrt(bias2)).addi(epsilon);
        param.subi(m.div(denominator).muli(schedule.rate(step) / bias1));
    }

    @Override
    public int rowStateSlots() {
        return 2;
    }

    /** Lazy Adam: {@code step} is the row's own update count, so bias correction follows each row's history. */
    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        float b1 = (float) beta1;
        float b2 = (float) beta2;
        float sqrtBias2 = (float) Math.sqrt(1 - Math.pow(beta2, step));
        float scale = (float) (schedule.rate(step) / (1 - Math.pow(beta1, step)));
        float eps = (float) epsilon;
        for (int k = 0; k < dim; k++) {
            float g = gradient[gradientOffset + k];
            int mAt = offset + dim + k;
            int vAt = mAt + dim;
            float m = b1 * row[mAt] + (1 - b1) * g;
            float v = b2 * row[vAt] + (1 - b2) * g * g;
            row[mAt] = m;
            row[vAt] = v;
            row[offset + k] -= scale * m / ((float) Math.sqrt(v) / sqrtBias2 + eps);
        }
    }

    @Override
    public String describe() {
        return Descriptions.of("ADAM",
                "lr=" + lr + ", beta1=" + beta1 + ", beta2=" + beta2 + ", epsilon=" + epsilon, schedule);
    }
}
