package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import java.nio.FloatBuffer;

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
    public void update(UpdateSpan span, long step) {
        float rate = (float) schedule.rate(step);
        FloatBuffer p = span.param();
        FloatBuffer g = span.gradient();
        Blocks b = Blocks.local(2);
        float[] pb = b.array(0);
        float[] gb = b.array(1);
        for (int done = 0, n = span.length(); done < n; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, n - done);
            p.get(span.paramAt() + done, pb, 0, len);
            g.get(span.gradientAt() + done, gb, 0, len);
            for (int k = 0; k < len; k++) {
                pb[k] -= rate * gb[k];
            }
            p.put(span.paramAt() + done, pb, 0, len);
        }
    }

    @Override
    public int rowStateSlots() {
        return 0;
    }

    @Override
    public String describe() {
        return Descriptions.of("SGD", "lr=" + lr, schedule);
    }
}
