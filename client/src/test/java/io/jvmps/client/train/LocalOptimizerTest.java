package io.jvmps.client.train;

import io.jvmps.optimizer.OptimizerType;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LocalOptimizerTest {

    @Test
    void sgdStepsAgainstTheGradientAndLeavesTheGradientAlone() {
        INDArray param = Nd4j.create(new float[] {1, 2});
        INDArray grad = Nd4j.create(new float[] {0.5f, -1});
        LocalOptimizer.of(OptimizerType.SGD, 0.1).apply("p", param, grad);
        assertThat(param.toFloatVector()).containsExactly(0.95f, 2.1f);
        assertThat(grad.toFloatVector()).containsExactly(0.5f, -1f);
    }

    @Test
    void adamKeepsStateAndUpdateCountPerParameterName() {
        LocalOptimizer adam = LocalOptimizer.of(OptimizerType.ADAM, 0.01);
        INDArray param = Nd4j.create(new float[] {1, 2});
        INDArray other = Nd4j.create(new float[] {0});
        INDArray grad = Nd4j.create(new float[] {0.001f, -30});
        adam.apply("p", param, grad);
        adam.apply("q", other, Nd4j.create(new float[] {5}));
        // first update of each name: bias-corrected, so a step of the learning rate along -sign(g)
        assertThat(param.getDouble(0)).isCloseTo(0.99, within(1e-5));
        assertThat(param.getDouble(1)).isCloseTo(2.01, within(1e-5));
        assertThat(other.getDouble(0)).isCloseTo(-0.01, within(1e-5));
        // same gradient again: the bias-corrected moments are unchanged, so the step is the same
        adam.apply("p", param, grad);
        assertThat(param.getDouble(0)).isCloseTo(0.98, within(1e-5));
    }

    @Test
    void aMatrixParameterIsUpdatedInPlaceInItsShapeAndType() {
        INDArray w = Nd4j.create(new double[][] {{1, 2}, {3, 4}});
        INDArray g = Nd4j.create(new double[][] {{1, 0}, {0, -1}});
        LocalOptimizer.of(OptimizerType.MOMENTUM, 0.5).apply("W", w, g);
        assertThat(w.shape()).containsExactly(2, 2);
        assertThat(w.dataType()).isEqualTo(DataType.DOUBLE);
        assertThat(w.ravel().toDoubleVector()).containsExactly(0.5, 2, 3, 4.5);
    }

    @Test
    void rejectsNonPositiveLearningRatesAndMismatchedGradients() {
        assertThatThrownBy(() -> LocalOptimizer.of(OptimizerType.ADAM, 0)).hasMessageContaining("learning rate");
        assertThatThrownBy(() -> LocalOptimizer.of(OptimizerType.SGD, -1)).hasMessageContaining("learning rate");
        assertThatThrownBy(() -> LocalOptimizer.of(OptimizerType.SGD, 0.1)
                .apply("b", Nd4j.create(new float[] {1, 2}), Nd4j.create(new float[] {1})))
                .hasMessageContaining("gradient of b has 1 elements, the parameter 2");
    }
}
