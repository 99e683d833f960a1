package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Optimizer updates against values worked out by hand (calculator), written out as literals, for
 * three steps each on a two-element vector. Every test starts from p = [1, -2] and feeds the
 * gradients [0.5, -1], [0.25, 2], [-1, 0.5] unless it says otherwise.
 */
class OptimizerMathTest {
    private static final double TOL = 2e-6;

    private static OptimizerSettings settings(double lr, double momentum, boolean nesterov) {
        return new OptimizerSettings(lr, momentum, nesterov, 0.9, 0.999, 1e-8);
    }

    private static OptimizerSettings ftrl(double alpha, double l1, double l2, double beta) {
        return new OptimizerSettings(alpha, 0, false, 0.9, 0.999, 1e-8, 0.1, l1, l2, beta,
                ScheduleSettings.constant());
    }

    /** Applies one step with a fresh gradient array and returns the parameters as doubles. */
    private static double[] step(Optimizer opt, INDArray param, OptimizerState state, long t, float... grad) {
        opt.apply(param, Nd4j.createFromArray(grad), state, t);
        return param.toDoubleVector();
    }

    private static double[] v(double... values) {
        return values;
    }

    @Test
    void sgdSubtractsLearningRateTimesGradient() {
        Optimizer sgd = OptimizerType.SGD.create(settings(0.1, 0, false));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = sgd.newState(2);
        // p = [1, -2] - 0.1 * [0.5, -1] = [0.95, -1.9]
        assertThat(step(sgd, p, state, 1, 0.5f, -1.0f)).containsExactly(v(0.95, -1.9), within(TOL));
        // p = [0.95, -1.9] - 0.1 * [0.25, 2] = [0.925, -2.1]
        assertThat(step(sgd, p, state, 2, 0.25f, 2.0f)).containsExactly(v(0.925, -2.1), within(TOL));
        // p = [0.925, -2.1] - 0.1 * [-1, 0.5] = [1.025, -2.15]
        assertThat(step(sgd, p, state, 3, -1.0f, 0.5f)).containsExactly(v(1.025, -2.15), within(TOL));
    }

    @Test
    void momentumAccumulatesVelocity() {
        Optimizer mom = OptimizerType.MOMENTUM.create(settings(0.1, 0.9, false));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = mom.newState(2);
        // v = [0.5, -1];                        p = [1 - 0.05, -2 + 0.1] = [0.95, -1.9]
        assertThat(step(mom, p, state, 1, 0.5f, -1.0f)).containsExactly(v(0.95, -1.9), within(TOL));
        // v = [0.45 + 0.25, -0.9 + 2] = [0.7, 1.1]; p = [0.95 - 0.07, -1.9 - 0.11] = [0.88, -2.01]
        assertThat(step(mom, p, state, 2, 0.25f, 2.0f)).containsExactly(v(0.88, -2.01), within(TOL));
        // v = [0.63 - 1, 0.99 + 0.5] = [-0.37, 1.49]; p = [0.88 + 0.037, -2.01 - 0.149] = [0.917, -2.159]
        assertThat(step(mom, p, state, 3, -1.0f, 0.5f)).containsExactly(v(0.917, -2.159), within(TOL));
        assertThat(state.slot(0).toDoubleVector()).containsExactly(v(-0.37, 1.49), within(TOL));
    }

    @Test
    void nesterovLooksAhead() {
        Optimizer nag = OptimizerType.MOMENTUM.create(settings(0.1, 0.9, true));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = nag.newState(2);
        // v = [0.5, -1];     p = [1 - 0.1*(0.5 + 0.45), -2 - 0.1*(-1 - 0.9)] = [0.905, -1.81]
        assertThat(step(nag, p, state, 1, 0.5f, -1.0f)).containsExactly(v(0.905, -1.81), within(TOL));
        // v = [0.7, 1.1];    p = [0.905 - 0.1*(0.25 + 0.63), -1.81 - 0.1*(2 + 0.99)] = [0.817, -2.109]
        assertThat(step(nag, p, state, 2, 0.25f, 2.0f)).containsExactly(v(0.817, -2.109), within(TOL));
        // v = [-0.37, 1.49]; p = [0.817 - 0.1*(-1 - 0.333), -2.109 - 0.1*(0.5 + 1.341)] = [0.9503, -2.2931]
        assertThat(step(nag, p, state, 3, -1.0f, 0.5f)).containsExactly(v(0.9503, -2.2931), within(TOL));
    }

    @Test
    void adagradDividesByRootOfAccumulatedSquares() {
        Optimizer adagrad = OptimizerType.ADAGRAD.create(settings(0.1, 0, false));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = adagrad.newState(2);
        // the accumulator starts at the default 0.1 (epsilon 1e-8 is below the tolerance)
        assertThat(state.slot(0).toDoubleVector()).containsExactly(v(0.1, 0.1), within(1e-7));
        // acc = [0.1 + 0.25, 0.1 + 1] = [0.35, 1.1]; sqrt = [0.5916080, 1.0488088]
        // p = [1 - 0.1*0.5/0.5916080, -2 + 0.1*1/1.0488088] = [1 - 0.0845154, -2 + 0.0953463] = [0.9154846, -1.9046537]
        assertThat(step(adagrad, p, state, 1, 0.5f, -1.0f)).containsExactly(v(0.9154846, -1.9046537), within(TOL));
        // acc = [0.35 + 0.0625, 1.1 + 4] = [0.4125, 5.1]; sqrt = [0.6422616, 2.2583180]
        // p = [0.9154846 - 0.025/0.6422616, -1.9046537 - 0.2/2.2583180] = [0.8765596, -1.9932152]
        assertThat(step(adagrad, p, state, 2, 0.25f, 2.0f)).containsExactly(v(0.8765596, -1.9932152), within(TOL));
        // acc = [0.4125 + 1, 5.1 + 0.25] = [1.4125, 5.35]; sqrt = [1.1884864, 2.3130067]
        // p = [0.8765596 + 0.1/1.1884864, -1.9932152 - 0.05/2.3130067] = [0.9607003, -2.0148321]
        assertThat(step(adagrad, p, state, 3, -1.0f, 0.5f)).containsExactly(v(0.9607003, -2.0148321), within(TOL));
        assertThat(state.slot(0).toDoubleVector()).containsExactly(v(1.4125, 5.35), within(1e-6));
    }

    @Test
    void adamIsBiasCorrected() {
        Optimizer adam = OptimizerType.ADAM.create(settings(0.1, 0, false));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = adam.newState(2);
        // gradients here: [0.5, -1], [-1, 2], [2, 0.5]
        // t=1: m = [0.05, -0.1], v = [0.00025, 0.001], mhat = [0.5, -1], vhat = [0.25, 1]
        //      p = [1 - 0.1*0.5/0.5, -2 + 0.1*1/1] = [0.9, -1.9]
        assertThat(step(adam, p, state, 1, 0.5f, -1.0f)).containsExactly(v(0.9, -1.9), within(TOL));
        assertThat(state.slot(0).toDoubleVector()).containsExactly(v(0.05, -0.1), within(1e-7));
        assertThat(state.slot(1).toDoubleVector()).containsExactly(v(0.00025, 0.001), within(1e-9));
        // t=2: m = [-0.055, 0.11], v = [0.00124975, 0.004999]
        //      mhat = m/0.19 = [-0.2894737, 0.5789474], vhat = v/0.001999 = [0.6251876, 2.5007504]
        //      sqrt(vhat) = [0.7906881, 1.5813761]
        //      p = [0.9 + 0.1*0.2894737/0.7906881, -1.9 - 0.1*0.5789474/1.5813761] = [0.9366103, -1.9366103]
        assertThat(step(adam, p, state, 2, -1.0f, 2.0f)).containsExactly(v(0.9366103, -1.9366103), within(TOL));
        // t=3: m = [0.1505, 0.149], v = [0.0052485, 0.005244001]
        //      mhat = m/0.271 = [0.5553506, 0.5498155], vhat = v/0.002997001 = [1.7512508, 1.7497495]
        //      sqrt(vhat) = [1.3233483, 1.3227810]
        //      p = [0.9366103 - 0.0419656, -1.9366103 - 0.0415651] = [0.8946448, -1.9781754]
        assertThat(step(adam, p, state, 3, 2.0f, 0.5f)).containsExactly(v(0.8946448, -1.9781754), within(TOL));
    }

    @Test
    void ftrlFollowsTheClosedForm() {
        // alpha = 0.5, beta = 1, l1 = 0.1, l2 = 0.2; FTRL weights start at 0 (z = n = 0)
        Optimizer ftrl = OptimizerType.FTRL.create(ftrl(0.5, 0.1, 0.2, 1.0));
        INDArray p = Nd4j.zeros(DataType.FLOAT, 2);
        OptimizerState state = ftrl.newState(2);
        // t=1, g = [0.5, -1]: sigma = [0.5/0.5, 1/0.5] = [1, 2]; z = g - sigma*0 = [0.5, -1]; n = [0.25, 1]
        //      den = [(1 + 0.5)/0.5 + 0.2, (1 + 1)/0.5 + 0.2] = [3.2, 4.2]
        //      w = [-(0.5 - 0.1)/3.2, -(-1 + 0.1)/4.2] = [-0.125, 0.2142857]
        assertThat(step(ftrl, p, state, 1, 0.5f, -1.0f)).containsExactly(v(-0.125, 0.2142857), within(TOL));
        // t=2, g = [0.25, 2]: n = [0.3125, 5]; sigma = [(0.5590170 - 0.5)/0.5, (2.2360680 - 1)/0.5]
        //      = [0.1180340, 2.4721360]; z = [0.5 + 0.25 + 0.1180340*0.125, -1 + 2 - 2.4721360*0.2142857]
        //      = [0.7647542, 0.4702566]; den = [(1 + 0.5590170)/0.5 + 0.2, (1 + 2.2360680)/0.5 + 0.2]
        //      = [3.3180340, 6.6721360]; w = [-0.6647542/3.3180340, -0.3702566/6.6721360] = [-0.2003458, -0.0554930]
        assertThat(step(ftrl, p, state, 2, 0.25f, 2.0f)).containsExactly(v(-0.2003458, -0.0554930), within(TOL));
        // t=3, g = [-1, 0.5]: n = [1.3125, 5.25]; sigma = [(1.1456439 - 0.5590170)/0.5, (2.2912878 - 2.2360680)/0.5]
        //      = [1.1732538, 0.1104397]; z = [0.7647542 - 1 + 1.1732538*0.2003458, 0.4702566 + 0.5 + 0.1104397*0.0554930]
        //      = [-0.0001892, 0.9763852]; |z0| <= l1 so w0 = 0 exactly;
        //      den1 = (1 + 2.2912878)/0.5 + 0.2 = 6.7825757; w1 = -(0.9763852 - 0.1)/6.7825757 = -0.1292113
        double[] w = step(ftrl, p, state, 3, -1.0f, 0.5f);
        assertThat(w).containsExactly(v(0.0, -0.1292113), within(TOL));
        assertThat(w[0]).isEqualTo(0.0);
        assertThat(state.slot(1).toDoubleVector()).containsExactly(v(1.3125, 5.25), within(1e-6));
    }

    @Test
    void ftrlKeepsCoordinatesWithinL1ExactlyZero() {
        // alpha = 0.5, beta = 1, l1 = 1, l2 = 0
        Optimizer ftrl = OptimizerType.FTRL.create(ftrl(0.5, 1.0, 0.0, 1.0));
        INDArray p = Nd4j.zeros(DataType.FLOAT, 2);
        OptimizerState state = ftrl.newState(2);
        // coordinate 0 gets [0.3, -0.2, 0.4]: z = 0.3, then 0.3 - 0.2 - 0 = 0.1, then 0.1 + 0.4 = 0.5 (w stays 0,
        // so sigma*w = 0): |z| <= 1 throughout, so w0 is exactly 0 after every step.
        // coordinate 1 gets 2 each time: t=1 sigma = 2/0.5 = 4, z = 2, n = 4, den = (1 + 2)/0.5 = 6,
        // w1 = -(2 - 1)/6 = -0.1666667
        float[][] grads = {{0.3f, 2f}, {-0.2f, 2f}, {0.4f, 2f}};
        for (int t = 0; t < 3; t++) {
            double[] w = step(ftrl, p, state, t + 1, grads[t]);
            assertThat(w[0]).isEqualTo(0.0);
            assertThat(w[1]).isNegative();
            if (t == 0) {
                assertThat(w[1]).isCloseTo(-0.1666667, within(TOL));
            }
        }
        assertThat(state.slot(0).getDouble(0)).isCloseTo(0.5, within(TOL));
    }

    @Test
    void everyTypeDescribesItself() {
        for (OptimizerType type : OptimizerType.values()) {
            // a plain constant rate is left out of the description; any other schedule is named
            assertThat(type.create(settings(0.5, 0.9, false)).describe())
                    .startsWith(type.name() + "(lr=0.5").doesNotContain("schedule");
            assertThat(type.create(settings(0.5, 0.9, false).withSchedule(
                    new ScheduleSettings(ScheduleType.COSINE, 0, 1, 1, 10, 0))).describe())
                    .startsWith(type.name() + "(lr=0.5")
                    .endsWith(", schedule=COSINE(total-steps=10, min-learning-rate=0.0))");
        }
    }
}
