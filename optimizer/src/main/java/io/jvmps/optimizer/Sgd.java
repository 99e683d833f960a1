package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;

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
        span.forEachBlock((p, g, slots, len) -> {
            for (int k = 0; k < len; k++) {
                p[k] -= rate * g[k];
            }
        });
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
