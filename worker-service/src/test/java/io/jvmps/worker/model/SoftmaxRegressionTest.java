package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.common.sharding.ParamSpec;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SoftmaxRegressionTest {
    private static final int N = 5;
    private static final int D = 3;
    private static final int K = 4;

    @Test
    void gradientsAndLossMatchTheAnalyticFormula() {
        Random random = new Random(3);
        float[][] x = randomMatrix(random, N, D);
        float[][] w = randomMatrix(random, D, K);
        float[] b = randomMatrix(random, 1, K)[0];
        int[] classes = {0, 3, 1, 3, 2};
        float[][] y = new float[N][K];
        for (int i = 0; i < N; i++) {
            y[i][classes[i]] = 1;
        }
        SoftmaxRegression model = new SoftmaxRegression(D, K);
        model.setParam(SoftmaxRegression.WEIGHTS, Nd4j.create(w));
        model.setParam(SoftmaxRegression.BIAS, Nd4j.create(b));

        StepResult result = model.gradients(Nd4j.create(x), Nd4j.create(y));

        // p = softmax(x w + b); dL/dlogits = (p - y) / n; dW = x^T g; db = sum_i g
        double[][] p = softmax(x, w, b);
        double loss = 0;
        double[][] expectedW = new double[D][K];
        double[] expectedB = new double[K];
        for (int i = 0; i < N; i++) {
            loss -= Math.log(p[i][classes[i]]) / N;
            for (int k = 0; k < K; k++) {
                double g = (p[i][k] - y[i][k]) / N;
                expectedB[k] += g;
                for (int j = 0; j < D; j++) {
                    expectedW[j][k] += x[i][j] * g;
                }
            }
        }
        assertThat(result.loss()).isCloseTo(loss, within(1e-5));
        assertThat(result.gradients().keySet()).containsExactly(SoftmaxRegression.WEIGHTS, SoftmaxRegression.BIAS);
        INDArray gw = result.gradients().get(SoftmaxRegression.WEIGHTS);
        INDArray gb = result.gradients().get(SoftmaxRegression.BIAS);
        assertThat(gw.shape()).containsExactly(D, K);
        assertThat(gb.shape()).containsExactly(K);
        for (int k = 0; k < K; k++) {
            assertThat(gb.getDouble(k)).isCloseTo(expectedB[k], within(1e-6));
            for (int j = 0; j < D; j++) {
                assertThat(gw.getDouble(j, k)).isCloseTo(expectedW[j][k], within(1e-6));
            }
        }
        INDArray predicted = model.predict(Nd4j.create(x));
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < K; k++) {
                assertThat(predicted.getDouble(i, k)).isCloseTo(p[i][k], within(1e-6));
            }
        }
    }

    @Test
    void gradientArraysAreFreshAndOwnedByTheCaller() {
        SoftmaxRegression model = new SoftmaxRegression(D, K);
        Random random = new Random(5);
        INDArray y = Nd4j.create(new float[][] {{1, 0, 0, 0}, {0, 1, 0, 0}});
        StepResult first = model.gradients(Nd4j.create(randomMatrix(random, 2, D)), y);
        INDArray firstCopy = first.gradients().get(SoftmaxRegression.WEIGHTS).dup();

        StepResult second = model.gradients(Nd4j.create(randomMatrix(random, 2, D)), y);

        assertThat(first.gradients().get(SoftmaxRegression.WEIGHTS)).isEqualTo(firstCopy);
        assertThat(second.gradients().get(SoftmaxRegression.WEIGHTS)).isNotEqualTo(firstCopy);
    }

    @Test
    void declaresItsParametersAndInitialisesDeterministically() {
        SoftmaxRegression model = new SoftmaxRegression(7, 3);
        assertThat(model.params()).containsExactly(new ParamSpec("W", new long[] {7, 3}), new ParamSpec("b", new long[] {3}));
        Map<String, INDArray> a = model.initialParams(1);
        assertThat(model.initialParams(1)).isEqualTo(a);
        assertThat(model.initialParams(2).get("W")).isNotEqualTo(a.get("W"));
        assertThat(a.get("b").sumNumber().doubleValue()).isZero();
        assertThat(a.get("W").dataType()).isEqualTo(DataType.FLOAT);
    }

    static float[][] randomMatrix(Random random, int rows, int cols) {
        float[][] m = new float[rows][cols];
        for (float[] row : m) {
            for (int j = 0; j < cols; j++) {
                row[j] = (float) random.nextGaussian();
            }
        }
        return m;
    }

    private static double[][] softmax(float[][] x, float[][] w, float[] b) {
        double[][] p = new double[x.length][b.length];
        for (int i = 0; i < x.length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < b.length; k++) {
                double z = b[k];
                for (int j = 0; j < w.length; j++) {
                    z += x[i][j] * w[j][k];
                }
                p[i][k] = z;
                max = Math.max(max, z);
            }
            double sum = 0;
            for (int k = 0; k < b.length; k++) {
                p[i][k] = Math.exp(p[i][k] - max);
                sum += p[i][k];
            }
            for (int k = 0; k < b.length; k++) {
                p[i][k] /= sum;
            }
        }
        return p;
    }
}
