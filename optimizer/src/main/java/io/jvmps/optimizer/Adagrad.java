package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

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
    public void update(UpdateSpan span, long step) {
        float rate = (float) schedule.rate(step);
        float eps = (float) epsilon;
        span.forEachBlock((p, g, slots, len) -> {
            float[] acc = slots[0];
            for (int k = 0; k < len; k++) {
                float grad = g[k];
                float a = acc[k] + grad * grad;
                acc[k] = a;
                p[k] -= rate * grad / ((float) Math.sqrt(a) + eps);
            }
        });
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
    public String describe() {
        return Descriptions.of("ADAGRAD",
                "lr=" + lr + ", initial-accumulator=" + initialAccumulator + ", epsilon=" + epsilon, schedule);
    }
}
