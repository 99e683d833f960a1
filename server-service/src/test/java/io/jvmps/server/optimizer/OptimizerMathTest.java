package io.jvmps.server.optimizer;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Optimizer updates against values worked out by hand (calculator), written out as literals, for
 * a few steps each.
 */
class OptimizerMathTest {
    private static final double TOL = 2e-6;

    private static OptimizerSettings settings(double lr, double momentum, boolean nesterov) {
        return new OptimizerSettings(lr, momentum, nesterov, 0.9, 0.999, 1e-8);
    }

    /** Applies one step with a fresh gradient array and returns the parameters as doubles. */
    private static double[] step(Optimizer opt, INDArray param, OptimizerState state, long t, float... grad) {
        opt.apply(param, Nd4j.createFromArray(grad), state, t);
        return param.toDoubleVector();
    }

    @Test
    void sgdSubtractsLearningRateTimesGradient() {
        Optimizer sgd = OptimizerType.SGD.create(settings(0.1, 0, false));
        INDArray p = Nd4j.createFromArray(1.0f, -2.0f);
        OptimizerState state = sgd.newState(2);
        // p = [1, -2] - 0.1 * [0.5, -1] = [0.95, -1.9]
        assertThat(step(sgd, p, state, 1, 0.5f, -1.0f)).containsExactly(new double[] {0.95, -1.9}, within(TOL));
        // p = [0.95, -1.9] - 0.1 * [0.25, 2] = [0.925, -2.1]
        assertThat(step(sgd, p, state, 2, 0.25f, 2.0f)).containsExactly(new double[] {0.925, -2.1}, within(TOL));
    }

    @Test
    void momentumAccumulatesVelocity() {
        Optimizer mom = OptimizerType.MOMENTUM.create(settings(0.1, 0.9, false));
        INDArray p = Nd4j.createFromArray(1.0f);
        OptimizerState state = mom.newState(1);
        // v = 0.5;              p = 1 - 0.1*0.5 = 0.95
        assertThat(step(mom, p, state, 1, 0.5f)[0]).isCloseTo(0.95, within(TOL));
        // v = 0.45 + 0.25 = 0.7; p = 0.95 - 0.07 = 0.88
        assertThat(step(mom, p, state, 2, 0.25f)[0]).isCloseTo(0.88, within(TOL));
        // v = 0.63 - 1 = -0.37;  p = 0.88 + 0.037 = 0.917
        assertThat(step(mom, p, state, 3, -1.0f)[0]).isCloseTo(0.917, within(TOL));
        assertThat(state.slot(0).getDouble(0)).isCloseTo(-0.37, within(TOL));
    }

    @Test
    void nesterovLooksAhead() {
        Optimizer nag = OptimizerType.MOMENTUM.create(settings(0.1, 0.9, true));
        INDArray p = Nd4j.createFromArray(1.0f);
        OptimizerState state = nag.newState(1);
        // v = 0.5;   p = 1 - 0.1*(0.5 + 0.9*0.5) = 1 - 0.095 = 0.905
        assertThat(step(nag, p, state, 1, 0.5f)[0]).isCloseTo(0.905, within(TOL));
        // v = 0.7;   p = 0.905 - 0.1*(0.25 + 0.63) = 0.817
        assertThat(step(nag, p, state, 2, 0.25f)[0]).isCloseTo(0.817, within(TOL));
        // v = -0.37; p = 0.817 - 0.1*(-1 - 0.333) = 0.9503
        assertThat(step(nag, p, state, 3, -1.0f)[0]).isCloseTo(0.9503, within(TOL));
    }

    @Test
    void adamIsBiasCorrected() {
        Optimizer adam = OptimizerType.ADAM.create(new OptimizerSettings(0.1, 0, false, 0.9, 0.999, 1e-8));
        INDArray p = Nd4j.createFromArray(1.0f, 3.0f);
        OptimizerState state = adam.newState(2);
        // t=1: m = 0.05, v = 0.00025, mhat = 0.5, vhat = 0.25 -> p = 1 - 0.1*0.5/0.5 = 0.9
        //      (second element has gradient 0 throughout and must not move)
        assertThat(step(adam, p, state, 1, 0.5f, 0f)).containsExactly(new double[] {0.9, 3.0}, within(TOL));
        assertThat(state.slot(0).getDouble(0)).isCloseTo(0.05, within(1e-7));
        assertThat(state.slot(1).getDouble(0)).isCloseTo(0.00025, within(1e-9));
        // t=2: m = -0.055, v = 0.00124975, mhat = -0.055/0.19 = -0.2894737,
        //      vhat = 0.00124975/0.001999 = 0.6251876, sqrt = 0.7906881 -> p = 0.9 + 0.0366103 = 0.9366103
        assertThat(step(adam, p, state, 2, -1.0f, 0f)).containsExactly(new double[] {0.9366103, 3.0}, within(TOL));
        // t=3: m = 0.1505, v = 0.0052485, mhat = 0.1505/0.271 = 0.5553506,
        //      vhat = 0.0052485/0.002997001 = 1.7512508, sqrt = 1.3233483 -> p = 0.9366103 - 0.0419656 = 0.8946448
        assertThat(step(adam, p, state, 3, 2.0f, 0f)).containsExactly(new double[] {0.8946448, 3.0}, within(TOL));
    }

    @Test
    void everyTypeDescribesItself() {
        for (OptimizerType type : OptimizerType.values()) {
            assertThat(type.create(settings(0.5, 0.9, false)).describe()).startsWith(type.name()).contains("lr=0.5");
        }
    }
}
