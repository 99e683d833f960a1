package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import java.nio.FloatBuffer;

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
        float sqrtBias2 = (float) Math.sqrt(1 - Math.pow(beta2, step));
        float scale = (float) (schedule.rate(step) / (1 - Math.pow(beta1, step)));
        float eps = (float) epsilon;
        FloatBuffer p = span.param();
        FloatBuffer g = span.gradient();
        FloatBuffer m = span.slot(0);
        FloatBuffer v = span.slot(1);
        Blocks b = Blocks.local(4);
        float[] pb = b.array(0);
        float[] gb = b.array(1);
        float[] mb = b.array(2);
        float[] vb = b.array(3);
        for (int done = 0, n = span.length(); done < n; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, n - done);
            p.get(span.paramAt() + done, pb, 0, len);
            g.get(span.gradientAt() + done, gb, 0, len);
            m.get(span.slotAt(0) + done, mb, 0, len);
            v.get(span.slotAt(1) + done, vb, 0, len);
            for (int k = 0; k < len; k++) {
                float grad = gb[k];
                float mk = b1 * mb[k] + c1 * grad;
                float vk = b2 * vb[k] + c2 * grad * grad;
                mb[k] = mk;
                vb[k] = vk;
                pb[k] = pb[k] - scale * mk / ((float) Math.sqrt(vk) / sqrtBias2 + eps);
            }
            p.put(span.paramAt() + done, pb, 0, len);
            m.put(span.slotAt(0) + done, mb, 0, len);
            v.put(span.slotAt(1) + done, vb, 0, len);
        }
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
