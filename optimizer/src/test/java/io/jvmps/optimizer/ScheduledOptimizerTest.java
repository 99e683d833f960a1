package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Optimizers take their learning rate for update t from the schedule, at the same t as the bias correction. */
class ScheduledOptimizerTest {
    private static final double TOL = 2e-6;

    private static OptimizerSettings base(double lr) {
        return new OptimizerSettings(lr, 0.9, false, 0.9, 0.999, 1e-8);
    }

    private static double[] step(Optimizer opt, INDArray param, OptimizerState state, long t, float... grad) {
        opt.apply(param, Nd4j.createFromArray(grad), state, t);
        return param.toDoubleVector();
    }

    @Test
    void sgdWithStepDecay() {
        // lr 0.4, STEP(step-size 1, gamma 0.5): rates 0.4, 0.2, 0.1; gradient [1, 1] each time
        Optimizer sgd = OptimizerType.SGD.create(
                base(0.4).withSchedule(new ScheduleSettings(ScheduleType.STEP, 0, 1, 0.5, 0, 0)));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = sgd.newState(2);
        // [1 - 0.4, -2 - 0.4] = [0.6, -2.4]
        assertThat(step(sgd, p, state, 1, 1f, 1f)).containsExactly(new double[] {0.6, -2.4}, within(TOL));
        // [0.6 - 0.2, -2.4 - 0.2] = [0.4, -2.6]
        assertThat(step(sgd, p, state, 2, 1f, 1f)).containsExactly(new double[] {0.4, -2.6}, within(TOL));
        // [0.4 - 0.1, -2.6 - 0.1] = [0.3, -2.7]
        assertThat(step(sgd, p, state, 3, 1f, 1f)).containsExactly(new double[] {0.3, -2.7}, within(TOL));
        assertThat(sgd.describe()).contains("schedule=STEP(step-size=1, gamma=0.5)");
    }

    @Test
    void adamWithWarmup() {
        // lr 0.1, warm-up 2 (rates 0.05 then 0.1), gradients [0.5, -1] then [-1, 2]
        Optimizer adam = OptimizerType.ADAM.create(
                base(0.1).withSchedule(new ScheduleSettings(ScheduleType.CONSTANT, 2, 1, 1, 0, 0)));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = adam.newState(2);
        // t=1: mhat/sqrt(vhat) = [0.5/0.5, -1/1] = [1, -1]; p = [1 - 0.05, -2 + 0.05] = [0.95, -1.95]
        assertThat(step(adam, p, state, 1, 0.5f, -1f)).containsExactly(new double[] {0.95, -1.95}, within(TOL));
        // t=2 (full rate): mhat/sqrt(vhat) = [-0.2894737/0.7906881, 0.5789474/1.5813761] = [-0.3661035, 0.3661035]
        //      p = [0.95 + 0.0366103, -1.95 - 0.0366103] = [0.9866103, -1.9866103]
        assertThat(step(adam, p, state, 2, -1f, 2f)).containsExactly(new double[] {0.9866103, -1.9866103},
                within(TOL));
    }

    @Test
    void momentumWithCosine() {
        // lr 0.1, mu 0.9, COSINE(total 2, min 0): rates 0.1, 0.05, 0; gradient [1] each time
        Optimizer mom = OptimizerType.MOMENTUM.create(
                base(0.1).withSchedule(new ScheduleSettings(ScheduleType.COSINE, 0, 1, 1, 2, 0)));
        INDArray p = Nd4j.createFromArray(1.0f);
        OptimizerState state = mom.newState(1);
        // v = 1;   p = 1 - 0.1*1 = 0.9
        assertThat(step(mom, p, state, 1, 1f)[0]).isCloseTo(0.9, within(TOL));
        // v = 1.9; p = 0.9 - 0.05*1.9 = 0.805
        assertThat(step(mom, p, state, 2, 1f)[0]).isCloseTo(0.805, within(TOL));
        // v = 2.71; rate 0 -> p stays 0.805
        assertThat(step(mom, p, state, 3, 1f)[0]).isCloseTo(0.805, within(TOL));
    }
}
