package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import java.nio.FloatBuffer;

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
        boolean ahead = nesterov;
        FloatBuffer p = span.param();
        FloatBuffer g = span.gradient();
        FloatBuffer v = span.slot(0);
        int pAt = span.paramAt();
        int gAt = span.gradientAt();
        int vAt = span.slotAt(0);
        for (int k = 0, n = span.length(); k < n; k++) {
            float grad = g.get(gAt + k);
            float vk = m * v.get(vAt + k) + grad;
            v.put(vAt + k, vk);
            p.put(pAt + k, p.get(pAt + k) - rate * (ahead ? grad + m * vk : vk));
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
