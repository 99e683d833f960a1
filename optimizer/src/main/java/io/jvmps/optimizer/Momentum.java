package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

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
    public void update(UpdateSpan span, long step) {
        float rate = (float) schedule.rate(step);
        float m = (float) mu;
        if (nesterov) { // two loops, so that neither branches per element
            span.forEachBlock((p, g, slots, len) -> {
                float[] v = slots[0];
                for (int k = 0; k < len; k++) {
                    float grad = g[k];
                    float vk = m * v[k] + grad;
                    v[k] = vk;
                    p[k] -= rate * (grad + m * vk);
                }
            });
        } else {
            span.forEachBlock((p, g, slots, len) -> {
                float[] v = slots[0];
                for (int k = 0; k < len; k++) {
                    float vk = m * v[k] + g[k];
                    v[k] = vk;
                    p[k] -= rate * vk;
                }
            });
        }
    }

    @Override
    public int rowStateSlots() {
        return 1;
    }

    @Override
    public String describe() {
        return Descriptions.of("MOMENTUM", "lr=" + lr + ", momentum=" + mu + ", nesterov=" + nesterov,
                schedule);
    }
}
