package io.jvmps.client.train;

import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardScoringTest {
    /** The "model" predicts each example's first feature: its scores are known exactly. */
    private static final ShardScoring FIRST_FEATURE = new ShardScoring(
            rows -> rows.features().getColumn(0).reshape(rows.size(), 1));

    private static LabeledData clicks(double[] p, double[] labels) {
        return new LabeledData(Nd4j.create(p, new long[] {p.length, 1}, DataType.FLOAT),
                Nd4j.create(labels, new long[] {labels.length, 1}, DataType.FLOAT));
    }

    @Test
    void aShardsHistogramCountsEveryExampleOfItsRangeAcrossBatches() {
        int n = 1_300; // three forward passes of ShardScoring.BATCH
        Random random = new Random(3);
        double[] p = new double[n];
        double[] labels = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = (float) random.nextDouble();
            labels[i] = random.nextDouble() < p[i] ? 1 : 0;
        }
        LabeledData test = clicks(p, labels);
        ClickHistogram shard = FIRST_FEATURE.clicks(test, new IndexRange(100, 1_250));
        ClickHistogram expected = ClickHistogram.of(java.util.Arrays.copyOfRange(p, 100, 1_250),
                java.util.Arrays.copyOfRange(labels, 100, 1_250));
        assertSameScores(shard, expected);
        assertThat(shard.examples()).isEqualTo(1_150);
        ClickHistogram rest = FIRST_FEATURE.clicks(test, new IndexRange(0, 100))
                .plus(FIRST_FEATURE.clicks(test, new IndexRange(1_250, n)));
        assertSameScores(shard.plus(rest), ClickHistogram.of(p, labels));
    }

    /** Equal counts in every bucket; the log loss up to the order its terms were added in. */
    private static void assertSameScores(ClickHistogram actual, ClickHistogram expected) {
        assertThat(actual.clicks()).isEqualTo(expected.clicks());
        assertThat(actual.nonClicks()).isEqualTo(expected.nonClicks());
        assertThat(actual.logLossSum()).isCloseTo(expected.logLossSum(), org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void aModelThatPredictsNoProbabilityIsNamedWithTheExample() {
        LabeledData test = clicks(new double[] {0.5, 0.25, 2.5}, new double[] {1, 0, 1});
        assertThatThrownBy(() -> FIRST_FEATURE.clicks(test, new IndexRange(0, 3)))
                .isInstanceOf(PsException.class)
                .hasMessageContaining("test example 2 is predicted 2.5")
                .hasMessageContaining("end the graph with a sigmoid");
        LabeledData badLabel = clicks(new double[] {0.5, 0.25}, new double[] {1, 3});
        assertThatThrownBy(() -> FIRST_FEATURE.clicks(badLabel, new IndexRange(0, 2)))
                .hasMessageContaining("test example 1 is labelled 3.0; a click label is 0 or 1");
        ShardScoring twoColumns = new ShardScoring(rows -> Nd4j.zeros(DataType.FLOAT, rows.size(), 2));
        assertThatThrownBy(() -> twoColumns.clicks(test, new IndexRange(0, 3)))
                .hasMessageContaining("one probability per example against a 0/1 label; for 3 examples the "
                        + "prediction has shape [3, 2] and the labels [3, 1]");
    }

    @Test
    void regressionErrorsAndCorrectClassesAreSummedOverTheRange() {
        LabeledData test = clicks(new double[] {1, 2, 4}, new double[] {1, 3, 2});
        SameDiffTrainer.Regression errors = FIRST_FEATURE.regression(test, new IndexRange(1, 3));
        assertThat(errors.squaredError()).isEqualTo(1 + 4);
        assertThat(errors.absoluteError()).isEqualTo(1 + 2);
        assertThat(errors.targets()).isEqualTo(2);
        LabeledData classes = new LabeledData(Nd4j.create(new float[][] {{0.9f, 0.1f}, {0.2f, 0.8f}, {0.6f, 0.4f}}),
                Nd4j.create(new float[][] {{1, 0}, {1, 0}, {1, 0}}));
        ShardScoring identity = new ShardScoring(LabeledData::features);
        assertThat(identity.correct(classes, new IndexRange(0, 3))).isEqualTo(2);
    }
}
