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
        int pAt = span.paramAt();
        int gAt = span.gradientAt();
        for (int k = 0, n = span.length(); k < n; k++) {
            p.put(pAt + k, p.get(pAt + k) - rate * g.get(gAt + k));
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
