package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LeNet5Test {
    private static final int BATCH = 8;
    private static LeNet5 model;
    private static INDArray features;
    private static INDArray labels;

    @BeforeAll
    static void build() {
        model = new LeNet5();
        features = MnistLikeBatch.features(BATCH, 17);
        labels = MnistLikeBatch.cyclingLabels(BATCH);
    }

    @Test
    void declaresTheClassicLayerShapes() {
        assertThat(model.params()).extracting(ParamSpec::toString).containsExactly(
                "conv1_W[5, 5, 1, 6]", "conv1_b[6]", "conv2_W[5, 5, 6, 16]", "conv2_b[16]",
                "fc1_W[400, 120]", "fc1_b[120]", "fc2_W[120, 84]", "fc2_b[84]", "out_W[84, 10]", "out_b[10]");
        assertThat(model.params().stream().mapToLong(ParamSpec::elements).sum()).isEqualTo(61_706);
    }

    @Test
    void lossAtInitialisationIsCloseToLnTenAndPredictionsAreProbabilities() {
        for (long seed = 0; seed < 3; seed++) {
            model.setParams(model.initialParams(seed));
            StepResult result = model.gradients(features, labels);
            assertThat(result.loss()).as("seed %d", seed).isCloseTo(Math.log(10), within(0.1));
            for (ParamSpec spec : model.params()) {
                INDArray g = result.gradients().get(spec.name());
                assertThat(g.shape()).isEqualTo(spec.shape());
                if (spec.name().endsWith("_W")) {
                    assertThat(g.norm2Number().doubleValue()).as(spec.name()).isGreaterThan(0);
                }
            }
        }
        INDArray p = model.predict(features);
        assertThat(p.shape()).containsExactly(BATCH, 10);
        for (double rowSum : p.sum(1).toDoubleVector()) {
            assertThat(rowSum).isCloseTo(1.0, within(1e-5));
        }
    }

    @Test
    void gradientsMatchCentralFiniteDifferences() {
        // Dense inputs and non-zero biases keep ReLUs off their kink at exactly 0 (sparse images with
        // zero biases put many units there, where only one-sided derivatives exist).
        Random random = new Random(23);
        Map<String, INDArray> params = model.initialParams(7);
        for (ParamSpec spec : model.params()) {
            if (spec.name().endsWith("_b")) {
                params.put(spec.name(), Nd4j.create(randomRows(random, 1, (int) spec.elements())[0]).subi(0.5).muli(0.2));
            }
        }
        model.setParams(params);
        INDArray x = Nd4j.create(randomRows(random, BATCH, 784));
        StepResult analytic = model.gradients(x, labels);
        // Dense layers are smooth here: float32 rounding (~1e-6 / 2h) is the only error. Conv layers
        // feed max-pooling, whose window winners can swap within +-h: allow more on single entries.
        // The median of the five errors must stay under half the maximum.
        Map<String, Double> maxRelativeError = Map.of("out_W", 0.01, "fc1_W", 0.02, "fc2_b", 0.02,
                "conv2_W", 0.10, "conv2_b", 0.10, "conv1_W", 0.10, "conv1_b", 0.10);
        for (Map.Entry<String, Double> check : maxRelativeError.entrySet()) {
            String name = check.getKey();
            INDArray original = model.param(name);
            INDArray grad = analytic.gradients().get(name).reshape(-1);
            // the five largest-magnitude entries, so float32 noise is small against them
            long[] top = Nd4j.sortWithIndices(Transforms.abs(grad, true), 0, false)[0].toLongVector();
            double h = 1e-3;
            // a float32 loss is quantised to its ulp, so a difference quotient is only good to ~2 ulp / 2h
            double float32Noise = 2 * Math.ulp((float) analytic.loss()) / (2 * h);
            double[] errors = new double[5];
            for (int t = 0; t < errors.length; t++) {
                double numeric = (lossWith(name, original, top[t], h, x) - lossWith(name, original, top[t], -h, x)) / (2 * h);
                double expected = grad.getDouble(top[t]);
                errors[t] = Math.max(0, Math.abs(numeric - expected) - float32Noise) / Math.abs(expected);
                assertThat(errors[t]).as("%s[%d]: numeric %s vs analytic %s", name, top[t], numeric, expected)
                        .isLessThan(check.getValue());
            }
            Arrays.sort(errors);
            assertThat(errors[errors.length / 2]).as("median relative error of %s", name)
                    .isLessThan(check.getValue() / 2);
            model.setParam(name, original);
        }
    }

    @Test
    void parametersAreCopiedInAndOut() {
        Map<String, INDArray> init = model.initialParams(3);
        assertThat(model.initialParams(3)).isEqualTo(init);
        assertThat(model.initialParams(4).get("conv1_W")).isNotEqualTo(init.get("conv1_W"));

        INDArray value = init.get("fc2_b").dup();
        model.setParam("fc2_b", value);
        value.addi(1);
        assertThat(model.param("fc2_b")).isEqualTo(init.get("fc2_b"));
        model.param("fc2_b").addi(5);
        assertThat(model.param("fc2_b")).isEqualTo(init.get("fc2_b"));

        INDArray flat = Nd4j.arange(0, 840).castTo(DataType.FLOAT);
        model.setParam("out_W", flat);
        assertThat(model.param("out_W").shape()).containsExactly(84, 10);
        assertThat(model.param("out_W").getFloat(1, 2)).isEqualTo(12f);
    }

    @Test
    void badParametersAndInputsAreRejectedWithoutChangingTheModel() {
        INDArray before = model.param("out_b");
        assertThatThrownBy(() -> model.setParam("out_b", Nd4j.zeros(DataType.FLOAT, 11)))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SHAPE_MISMATCH))
                .hasMessageContaining("out_b[10]");
        assertThatThrownBy(() -> model.param("fc9_W"))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_KEY))
                .hasMessageContaining("fc9_W").hasMessageContaining("conv1_W");
        assertThatThrownBy(() -> model.gradients(Nd4j.zeros(DataType.FLOAT, 2, 783), Nd4j.zeros(DataType.FLOAT, 2, 10)))
                .hasMessageContaining("784").hasMessageContaining("783");
        assertThatThrownBy(() -> model.gradients(features, Nd4j.zeros(DataType.FLOAT, BATCH, 9)))
                .hasMessageContaining("labels");
        assertThat(model.param("out_b")).isEqualTo(before);
    }

    private static double lossWith(String name, INDArray original, long index, double delta, INDArray x) {
        INDArray perturbed = original.dup();
        perturbed.reshape(-1).putScalar(index, original.reshape(-1).getDouble(index) + delta);
        model.setParam(name, perturbed);
        return model.loss(x, labels);
    }

    private static float[][] randomRows(Random random, int rows, int cols) {
        float[][] out = new float[rows][cols];
        for (float[] row : out) {
            for (int j = 0; j < cols; j++) {
                row[j] = random.nextFloat();
            }
        }
        return out;
    }
}
