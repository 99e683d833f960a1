package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A user's graph as the trainer sees it: its float32 variables are the parameters, in a given order when
 * asked; one pass gives the loss and the gradients the servers apply; what is missing or of the wrong kind
 * is refused naming the graph's variables.
 */
class SameDiffGraphTest {

    /** softmax(x W + b) over 3 features and 2 classes, W and b at fixed values. */
    static SameDiff linear(String lossName) {
        SameDiff sd = SameDiff.create();
        SDVariable x = sd.placeHolder("x", DataType.FLOAT, -1, 3);
        SDVariable y = sd.placeHolder("y", DataType.FLOAT, -1, 2);
        SDVariable w = sd.var("w", Nd4j.create(new float[]{0.1f, -0.2f, 0.3f, 0.0f, -0.1f, 0.2f}, new long[]{3, 2}, 'c'));
        SDVariable b = sd.var("b", Nd4j.create(new float[]{0.05f, -0.05f}, new long[]{1, 2}, 'c'));
        SDVariable logits = x.mmul(w).add(b);
        sd.nn().softmax("p", logits, 1);
        sd.loss().softmaxCrossEntropy(lossName, y, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        return sd;
    }

    private static final GraphNames NAMES = new GraphNames("x", "y", "xent", "p");

    @Test
    void theGradientOfTheMeanCrossEntropyIsWhatTheServersGet() {
        SameDiffGraph graph = SameDiffGraph.of(linear("xent"), NAMES, "linear", List.of("w", "b"));
        assertThat(graph.params()).extracting(p -> p.name()).containsExactly("w", "b");
        assertThat(graph.inputSize()).isEqualTo(3);
        assertThat(graph.numClasses()).isEqualTo(2);
        INDArray x = Nd4j.create(new float[]{1, 2, 3, -1, 0, 1}, new long[]{2, 3}, 'c');
        INDArray y = Nd4j.create(new float[]{1, 0, 0, 1}, new long[]{2, 2}, 'c');
        StepResult step = graph.gradients(x, y);
        // d(mean xent)/d logits = (softmax - y) / n; d/dW = x^T that; d/db = column sums
        INDArray p = graph.predict(x);
        INDArray dLogits = p.sub(y).divi(2);
        assertThat(step.gradients().get("w").ravel().toFloatVector()).usingComparatorWithPrecision(1e-5f)
                .containsExactly(x.transpose().mmul(dLogits).ravel().toFloatVector());
        assertThat(step.gradients().get("b").ravel().toFloatVector()).usingComparatorWithPrecision(1e-5f)
                .containsExactly(dLogits.sum(0).toFloatVector());
        assertThat(step.loss()).isCloseTo(graph.loss(x, y), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void settingAParameterChangesWhatTheGraphComputes() {
        SameDiffGraph graph = SameDiffGraph.of(linear("xent"), NAMES, "linear");
        INDArray x = Nd4j.create(new float[]{1, 2, 3}, new long[]{1, 3}, 'c');
        graph.setParam("w", Nd4j.zeros(DataType.FLOAT, 6));
        graph.setParam("b", Nd4j.create(new float[]{0f, 0f}, new long[]{1, 2}, 'c'));
        assertThat(graph.predict(x).ravel().toFloatVector()).usingComparatorWithPrecision(1e-6f).containsExactly(0.5f, 0.5f);
        assertThatThrownBy(() -> graph.setParam("w", Nd4j.zeros(DataType.FLOAT, 5)))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SHAPE_MISMATCH));
        assertThatThrownBy(() -> graph.param("v"))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_KEY))
                .hasMessageContaining("[");
        assertThatThrownBy(() -> graph.predict(Nd4j.zeros(DataType.FLOAT, 1, 4)))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("needs features [n >= 1, 3]");
    }

    @Test
    void aMissingVariableOrAWrongOrderIsRefusedNamingTheGraphsVariables() {
        assertThatThrownBy(() -> SameDiffGraph.of(linear("other"), NAMES, "linear"))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("linear has no variable 'xent'").hasMessageContaining("w:VARIABLE")
                .hasMessageContaining("x:PLACEHOLDER");
        assertThatThrownBy(() -> SameDiffGraph.of(linear("xent"), new GraphNames("w", "y", "xent", "p"), "linear"))
                .isInstanceOf(PsException.class).hasMessageContaining("is a VARIABLE, not a PLACEHOLDER");
        assertThatThrownBy(() -> SameDiffGraph.of(linear("xent"), NAMES, "linear", List.of("w")))
                .isInstanceOf(PsException.class).hasMessageContaining("does not name its trainable variables");
    }
}
