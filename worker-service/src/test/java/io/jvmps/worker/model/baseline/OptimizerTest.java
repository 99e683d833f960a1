package io.jvmps.worker.model.baseline;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OptimizerTest {

    @Test
    void sgdStepsAgainstTheGradient() {
        INDArray param = Nd4j.create(new float[] {1, 2});
        INDArray grad = Nd4j.create(new float[] {0.5f, -1});
        LocalOptimizerType.SGD.create(0.1).apply("p", param, grad);
        assertThat(param.toFloatVector()).containsExactly(0.95f, 2.1f);
        assertThat(grad.toFloatVector()).containsExactly(0.5f, -1f);
    }

    @Test
    void adamFirstStepsMoveByTheLearningRateAlongTheGradientSign() {
        LocalOptimizer adam = LocalOptimizerType.ADAM.create(0.01);
        INDArray param = Nd4j.create(new float[] {1, 2});
        INDArray other = Nd4j.create(new float[] {0});
        INDArray grad = Nd4j.create(new float[] {0.001f, -30});
        adam.apply("p", param, grad);
        adam.apply("q", other, Nd4j.create(new float[] {5}));
        assertThat(param.getDouble(0)).isCloseTo(0.99, within(1e-5));
        assertThat(param.getDouble(1)).isCloseTo(2.01, within(1e-5));
        assertThat(other.getDouble(0)).isCloseTo(-0.01, within(1e-5));
        // same gradient again: bias-corrected moments are unchanged, so the step is the same
        adam.apply("p", param, grad);
        assertThat(param.getDouble(0)).isCloseTo(0.98, within(1e-5));
    }

    @Test
    void rejectsNonPositiveLearningRates() {
        assertThatThrownBy(() -> LocalOptimizerType.ADAM.create(0)).hasMessageContaining("learning rate");
        assertThatThrownBy(() -> LocalOptimizerType.SGD.create(-1)).hasMessageContaining("learning rate");
    }
}
