package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import java.nio.FloatBuffer;

/**
 * FTRL-Proximal (McMahan et al., "Ad Click Prediction: a View from the Trenches", 2013, Algorithm 1),
 * per coordinate, with {@code alpha = lr_t} from the schedule:
 * <pre>
 *   sigma = (sqrt(n + g^2) - sqrt(n)) / alpha
 *   z    += g - sigma * w
 *   n    += g^2
 *   w     = 0                                                  if |z| &lt;= l1
 *         = -(z - sign(z) * l1) / ((beta + sqrt(n)) / alpha + l2) otherwise
 * </pre>
 * The slice holds w; two state slots hold z and n (both start at 0). The closed form is computed as
 * {@code (clip(z, -l1, l1) - z) / denominator}, which is exactly +0 wherever {@code |z| <= l1}. With a
 * schedule, alpha is the rate of the current update (the paper's alpha is constant).
 */
public final class Ftrl implements Optimizer {
    private final double lr;
    private final double l1;
    private final double l2;
    private final double beta;
    private final LearningRateSchedule schedule;

    /** @param settings uses {@code learningRate} (alpha), {@code l1}, {@code l2}, {@code beta} and the schedule */
    public Ftrl(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.l1 = settings.l1();
        this.l2 = settings.l2();
        this.beta = settings.beta();
        this.schedule = settings.learningRateSchedule();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.zeros(2, length);
    }

    @Override
    public void update(UpdateSpan span, long step) {
        double alpha = schedule.rate(step);
        FloatBuffer w = span.param();
        FloatBuffer g = span.gradient();
        FloatBuffer z = span.slot(0);
        FloatBuffer n = span.slot(1);
        Blocks b = Blocks.local(4);
        float[] wb = b.array(0);
        float[] gb = b.array(1);
        float[] zb = b.array(2);
        float[] nb = b.array(3);
        for (int done = 0, total = span.length(); done < total; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, total - done);
            w.get(span.paramAt() + done, wb, 0, len);
            g.get(span.gradientAt() + done, gb, 0, len);
            z.get(span.slotAt(0) + done, zb, 0, len);
            n.get(span.slotAt(1) + done, nb, 0, len);
            for (int k = 0; k < len; k++) {
                float grad = gb[k];
                float nOld = nb[k];
                float sqrtOld = (float) Math.sqrt(nOld);
                float nk = nOld + grad * grad;
                float sqrtNew = (float) Math.sqrt(nk);
                float sigma = (float) ((sqrtNew - sqrtOld) / alpha);
                float zk = zb[k] + grad - sigma * wb[k];
                zb[k] = zk;
                nb[k] = nk;
                float denominator = (float) ((sqrtNew + beta) / alpha + l2);
                float clipped = (float) Math.min(Math.max(zk, -l1), l1);
                wb[k] = (clipped - zk) / denominator;
            }
            w.put(span.paramAt() + done, wb, 0, len);
            z.put(span.slotAt(0) + done, zb, 0, len);
            n.put(span.slotAt(1) + done, nb, 0, len);
        }
    }

    @Override
    public int rowStateSlots() {
        return 2;
    }

    @Override
    public String describe() {
        return Descriptions.of("FTRL", "lr=" + lr + ", l1=" + l1 + ", l2=" + l2 + ", beta=" + beta, schedule);
    }
}
