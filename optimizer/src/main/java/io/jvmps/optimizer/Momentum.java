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
        FloatBuffer p = span.param();
        FloatBuffer g = span.gradient();
        FloatBuffer v = span.slot(0);
        Blocks b = Blocks.local(3);
        float[] pb = b.array(0);
        float[] gb = b.array(1);
        float[] vb = b.array(2);
        for (int done = 0, n = span.length(); done < n; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, n - done);
            p.get(span.paramAt() + done, pb, 0, len);
            g.get(span.gradientAt() + done, gb, 0, len);
            v.get(span.slotAt(0) + done, vb, 0, len);
            if (nesterov) { // two loops, so that neither branches per element
                for (int k = 0; k < len; k++) {
                    float grad = gb[k];
                    float vk = m * vb[k] + grad;
                    vb[k] = vk;
                    pb[k] -= rate * (grad + m * vk);
                }
            } else {
                for (int k = 0; k < len; k++) {
                    float vk = m * vb[k] + gb[k];
                    vb[k] = vk;
                    pb[k] -= rate * vk;
                }
            }
            p.put(span.paramAt() + done, pb, 0, len);
            v.put(span.slotAt(0) + done, vb, 0, len);
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
