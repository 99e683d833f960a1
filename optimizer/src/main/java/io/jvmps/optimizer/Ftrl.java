package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

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
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        double alpha = schedule.rate(step);
        INDArray z = state.slot(0);
        INDArray n = state.slot(1);
        INDArray sqrtOld = Transforms.sqrt(n, true);
        n.addi(gradient.mul(gradient));
        INDArray sqrtNew = Transforms.sqrt(n, true);
        INDArray sigma = sqrtNew.sub(sqrtOld).divi(alpha);
        z.addi(gradient.subi(sigma.muli(param)));
        INDArray denominator = sqrtNew.addi(beta).divi(alpha).addi(l2);
        INDArray clipped = Transforms.min(Transforms.max(z, -l1, true), l1, false);
        param.assign(clipped.subi(z).divi(denominator));
    }

    @Override
    public int rowStateSlots() {
        return 2;
    }

    @Override
    public void applyRow(float[] row, int offset, int dim, float[] gradient, int gradientOffset, long step) {
        double alpha = schedule.rate(step);
        for (int k = 0; k < dim; k++) {
            float g = gradient[gradientOffset + k];
            int wAt = offset + k;
            int zAt = offset + dim + k;
            int nAt = zAt + dim;
            float sqrtOld = (float) Math.sqrt(row[nAt]);
            float n = row[nAt] + g * g;
            float sqrtNew = (float) Math.sqrt(n);
            float sigma = (float) ((sqrtNew - sqrtOld) / alpha);
            float z = row[zAt] + g - sigma * row[wAt];
            row[zAt] = z;
            row[nAt] = n;
            float denominator = (float) ((sqrtNew + beta) / alpha + l2);
            float clipped = (float) Math.min(Math.max(z, -l1), l1);
            row[wAt] = (clipped - z) / denominator;
        }
    }

    @Override
    public String describe() {
        return Descriptions.of("FTRL", "lr=" + lr + ", l1=" + l1 + ", l2=" + l2 + ", beta=" + beta, schedule);
    }
}
