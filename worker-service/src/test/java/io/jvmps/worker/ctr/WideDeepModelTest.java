package io.jvmps.worker.ctr;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WideDeepModelTest {

    @Test
    void gradientsOfLookedUpRowsAreTheLossGradients() {
        int n = 4;
        int wideWidth = 3;
        int fields = 2;
        int dim = 3;
        WideDeepModel model = new WideDeepModel(wideWidth, fields, dim, 5, 4);
        model.setParams(model.initialParams(3));
        Random random = new Random(5);
        float[] wide = new float[n * wideWidth];
        float[] deep = new float[n * fields * dim];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = (float) random.nextGaussian() * 0.3f;
        }
        for (int i = 0; i < deep.length; i++) {
            deep[i] = (float) random.nextGaussian();
        }
        float[] labels = {1, 0, 0, 1};
        WideDeepModel.Step step = model.step(wide, deep, labels);
        float[] p = model.predict(wide, deep, n);
        assertThat(step.dense()).hasSize(7);
        // d(mean loss)/d(wide weight of example e) = (p_e - y_e) / n * wide_W[j], and wide_W starts at ones
        for (int e = 0; e < n; e++) {
            for (int j = 0; j < wideWidth; j++) {
                assertThat(step.wideGrad()[e * wideWidth + j]).isCloseTo((p[e] - labels[e]) / n, within(1e-5f));
            }
        }
        // deep positions: central finite differences of the loss
        float h = 1e-2f;
        for (int i : new int[] {0, 4, 11, 23}) {
            float[] plus = deep.clone();
            float[] minus = deep.clone();
            plus[i] += h;
            minus[i] -= h;
            double numeric = (model.step(wide, plus, labels).loss() - model.step(wide, minus, labels).loss()) / (2 * h);
            assertThat((double) step.deepGrad()[i]).as("deep position %d", i).isCloseTo(numeric, within(2e-3));
        }
        double expectedLoss = 0;
        for (int e = 0; e < n; e++) {
            expectedLoss -= labels[e] == 1 ? Math.log(p[e]) : Math.log(1 - p[e]);
        }
        assertThat(step.loss()).isCloseTo(expectedLoss / n, within(1e-5));
    }
}
