package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

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

    /** Lazy for rows: {@code step} is the row's own update count, so bias correction follows each row's history. */
    @Override
    public void update(UpdateSpan span, long step) {
        float b1 = (float) beta1;
        float b2 = (float) beta2;
        float c1 = (float) (1 - beta1); // in double first: 1 - 0.999f is 0.00099998713
        float c2 = (float) (1 - beta2);
        float invSqrtBias2 = (float) (1 / Math.sqrt(1 - Math.pow(beta2, step))); // a multiply per element, not a divide
        float scale = (float) (schedule.rate(step) / (1 - Math.pow(beta1, step)));
        float eps = (float) epsilon;
        span.forEachBlock((p, g, slots, len) -> {
            float[] m = slots[0];
            float[] v = slots[1];
            for (int k = 0; k < len; k++) {
                float grad = g[k];
                float mk = b1 * m[k] + c1 * grad;
                float vk = b2 * v[k] + c2 * grad * grad;
                m[k] = mk;
                v[k] = vk;
                p[k] = p[k] - scale * mk / ((float) Math.sqrt(vk) * invSqrtBias2 + eps);
            }
        });
    }

    @Override
    public int rowStateSlots() {
        return 2;
    }

    @Override
    public String describe() {
        return Descriptions.of("ADAM",
                "lr=" + lr + ", beta1=" + beta1 + ", beta2=" + beta2 + ", epsilon=" + epsilon, schedule);
    }
}
