package io.jvmps.worker.linear;

import io.jvmps.client.dataset.SparseBatch;
import io.jvmps.client.train.StepResult;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.DistinctIds;
import io.jvmps.worker.model.SoftmaxRegression;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The sparse softmax computes what the dense SOFTMAX graph computes on the same examples written densely. */
class SparseSoftmaxTest {
    private static final int FEATURES = 12;
    private static final int CLASSES = 3;
    private static final int EXAMPLES = 7;

    @Test
    void lossGradientsAndPredictionsEqualTheDenseGraphs() {
        Random random = new Random(11);
        float[] w = new float[FEATURES * CLASSES];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) random.nextGaussian();
        }
        float[] b = {0.3f, -0.2f, 0.1f};
        int[] rowStarts = new int[EXAMPLES + 1];
        long[] ids = new long[EXAMPLES * FEATURES];
        float[] values = new float[EXAMPLES * FEATURES];
        int[] labels = new int[EXAMPLES];
        float[] dense = new float[EXAMPLES * FEATURES];
        int stored = 0;
        for (int r = 0; r < EXAMPLES; r++) {
            for (int j = 0; j < FEATURES; j++) {
                if (r == 3 || random.nextDouble() < 0.6) {
                    continue; // example 3 has no features at all; features 0..11 come and go
                }
                ids[stored] = j;
                values[stored] = (float) random.nextGaussian();
                dense[r * FEATURES + j] = values[stored];
                stored++;
            }
            rowStarts[r + 1] = stored;
            labels[r] = random.nextInt(CLASSES);
        }
        long[] storedIds = java.util.Arrays.copyOf(ids, stored);
        SparseBatch batch = new SparseBatch(rowStarts, storedIds, java.util.Arrays.copyOf(values, stored), labels);
        float[] rows = new float[stored * CLASSES];
        for (int k = 0; k < stored; k++) {
            System.arraycopy(w, (int) storedIds[k] * CLASSES, rows, k * CLASSES, CLASSES);
        }

        SparseSoftmax sparse = new SparseSoftmax(CLASSES);
        SparseSoftmax.Step step = sparse.step(batch, rows, b);

        SoftmaxRegression graph = new SoftmaxRegression(FEATURES, CLASSES);
        graph.setParam(SoftmaxRegression.WEIGHTS, Nd4j.create(w, new long[]{FEATURES, CLASSES}, DataType.FLOAT));
        graph.setParam(SoftmaxRegression.BIAS, Nd4j.create(b, new long[]{CLASSES}, DataType.FLOAT)
                .reshape(graph.param(SoftmaxRegression.BIAS).shape()));
        float[] oneHot = new float[EXAMPLES * CLASSES];
        for (int r = 0; r < EXAMPLES; r++) {
            oneHot[r * CLASSES + labels[r]] = 1f;
        }
        var x = Nd4j.create(dense, new long[]{EXAMPLES, FEATURES}, DataType.FLOAT);
        StepResult expected = graph.gradients(x, Nd4j.create(oneHot, new long[]{EXAMPLES, CLASSES}, DataType.FLOAT));

        assertThat(step.loss()).isCloseTo(expected.loss(), within(1e-5));
        assertThat(step.biasGradient()).containsExactly(
                Nd4j.toFlattened('c', expected.gradients().get(SoftmaxRegression.BIAS)).toFloatVector(), within(1e-5f));
        DistinctIds distinct = DistinctIds.of(storedIds);
        float[] summed = distinct.sum(step.rowGradients(), CLASSES);
        float[] expectedW = Nd4j.toFlattened('c', expected.gradients().get(SoftmaxRegression.WEIGHTS))
                .toFloatVector();
        float[] sparseW = new float[FEATURES * CLASSES]; // features no example stores get no gradient
        for (int i = 0; i < distinct.ids().length; i++) {
            System.arraycopy(summed, i * CLASSES, sparseW, (int) distinct.ids()[i] * CLASSES, CLASSES);
        }
        assertThat(sparseW).containsExactly(expectedW, within(1e-5f));
        float[] predicted = Nd4j.toFlattened('c', graph.predict(x)).toFloatVector();
        int[] classes = sparse.predict(batch, rows, b);
        for (int r = 0; r < EXAMPLES; r++) {
            int best = 0;
            for (int c = 1; c < CLASSES; c++) {
                best = predicted[r * CLASSES + c] > predicted[r * CLASSES + best] ? c : best;
            }
            assertThat(classes[r]).as("example %d", r).isEqualTo(best);
        }
    }

    @Test
    void wrongWidthsAreRefused() {
        SparseBatch batch = new SparseBatch(new int[]{0, 1}, new long[]{4}, new float[]{1f}, new int[]{0});
        SparseSoftmax model = new SparseSoftmax(2);
        assertThatThrownBy(() -> model.step(batch, new float[3], new float[2])).isInstanceOf(PsException.class)
                .hasMessageContaining("expected 1 rows of 2 and a bias of 2, got 3 floats and 2");
        assertThatThrownBy(() -> new SparseSoftmax(1)).hasMessageContaining("needs >= 2 classes, got 1");
    }
}
