package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import java.nio.FloatBuffer;

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
        FloatBuffer p = span.param();
        FloatBuffer g = span.gradient();
        FloatBuffer acc = span.slot(0);
        Blocks b = Blocks.local(3);
        float[] pb = b.array(0);
        float[] gb = b.array(1);
        float[] ab = b.array(2);
        for (int done = 0, n = span.length(); done < n; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, n - done);
            p.get(span.paramAt() + done, pb, 0, len);
            g.get(span.gradientAt() + done, gb, 0, len);
            acc.get(span.slotAt(0) + done, ab, 0, len);
            for (int k = 0; k < len; k++) {
                float grad = gb[k];
                float a = ab[k] + grad * grad;
                ab[k] = a;
                pb[k] -= rate * grad / ((float) Math.sqrt(a) + eps);
            }
            p.put(span.paramAt() + done, pb, 0, len);
            acc.put(span.slotAt(0) + done, ab, 0, len);
        }
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
