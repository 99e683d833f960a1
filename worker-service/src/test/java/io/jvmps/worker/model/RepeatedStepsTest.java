package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.client.train.FreshSessionArrays;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A model that has already run steps computes the same loss, gradients and predictions as a fresh one
 * with the same parameters. With nd4j's oneDNN build and SameDiff's default array reuse, every step
 * after the first one was wrong (see {@link FreshSessionArrays}); this fails on that.
 */
class RepeatedStepsTest {
    private static final int BATCH = 64;

    @Test
    void aModelThatRanStepsAgreesWithAFreshOne() {
        LeNet5 used = new LeNet5();
        used.setParams(used.initialParams(1));
        for (int step = 0; step < 3; step++) {
            used.gradients(features(step), labels(step));
            used.predict(features(step));
        }
        Map<String, INDArray> params = used.initialParams(2);
        used.setParams(params);
        StepResult later = used.gradients(features(7), labels(7));

        LeNet5 fresh = new LeNet5();
        fresh.setParams(params);
        StepResult first = fresh.gradients(features(7), labels(7));

        assertThat(later.loss()).isCloseTo(first.loss(), within(1e-5));
        for (String name : first.gradients().keySet()) {
            double diff = later.gradients().get(name).sub(first.gradients().get(name)).amaxNumber().doubleValue();
            assertThat(diff).as("largest gradient difference of %s", name).isLessThan(1e-5);
        }
        double predictionDiff = used.predict(features(8)).sub(fresh.predict(features(8))).amaxNumber().doubleValue();
        assertThat(predictionDiff).isLessThan(1e-6);
    }

    private static INDArray features(long seed) {
        return MnistLikeBatch.features(BATCH, seed);
    }

    private static INDArray labels(long seed) {
        return MnistLikeBatch.randomLabels(BATCH, seed + 1000);
    }
}
