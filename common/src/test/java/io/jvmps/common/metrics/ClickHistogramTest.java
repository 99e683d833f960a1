package io.jvmps.common.metrics;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ClickHistogramTest {

    /** The exact AUC by counting every (click, non-click) pair, ties one half. */
    private static double pairwiseAuc(double[] p, double[] labels) {
        double wins = 0;
        long pairs = 0;
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                if (labels[i] == 1 && labels[j] == 0) {
                    wins += p[i] > p[j] ? 1 : p[i] == p[j] ? 0.5 : 0;
                    pairs++;
                }
            }
        }
        return wins / pairs;
    }

    @Test
    void theAucOfProbabilitiesInDistinctBucketsIsTheExactPairwiseAuc() {
        Random random = new Random(7);
        int n = 800;
        double[] p = new double[n];
        double[] labels = new double[n];
        for (int i = 0; i < n; i++) {
            // bucket centres, five examples apart: no two examples share a bucket
            p[i] = (i * 5 + 0.5) / ClickHistogram.BUCKETS;
            labels[i] = random.nextDouble() < p[i] * 0.6 + 0.2 ? 1 : 0;
        }
        assertThat(ClickHistogram.of(p, labels).auc()).isCloseTo(pairwiseAuc(p, labels), within(1e-12));
    }

    @Test
    void examplesInOneBucketAreTiesAndEqualProbabilitiesToo() {
        double[] p = {0.5, 0.5, 0.5, 0.5};
        double[] labels = {1, 0, 1, 0};
        assertThat(ClickHistogram.of(p, labels).auc()).isEqualTo(0.5);
        assertThat(pairwiseAuc(p, labels)).isEqualTo(0.5);
    }

    @Test
    void shardsAddUpToTheHistogramOfTheirUnion() {
        double[] p = {0.1, 0.8, 0.35, 0.99, 0.6, 0.0};
        double[] labels = {0, 1, 0, 1, 0, 1};
        ClickHistogram whole = ClickHistogram.of(p, labels);
        ClickHistogram first = ClickHistogram.of(new double[] {0.1, 0.8, 0.35}, new double[] {0, 1, 0});
        ClickHistogram second = ClickHistogram.of(new double[] {0.99, 0.6, 0.0}, new double[] {1, 0, 1});
        ClickHistogram sum = first.plus(second);
        assertThat(sum).isEqualTo(whole);
        assertThat(sum.examples()).isEqualTo(6);
        assertThat(sum.correct()).as("0.1, 0.8, 0.35 and 0.99 are right at 0.5").isEqualTo(4);
        assertThat(sum.auc()).isCloseTo(pairwiseAuc(p, labels), within(1e-12));
        assertThat(first.plus(ClickHistogram.empty())).isEqualTo(first);
    }

    @Test
    void logLossClampsCertainMistakesAndAveragesOverExamples() {
        ClickHistogram h = ClickHistogram.of(new double[] {1.0, 0.25}, new double[] {0, 1});
        assertThat(h.logLoss()).isCloseTo((-Math.log(1e-7) - Math.log(0.25)) / 2, within(1e-6));
        assertThat(h.correct()).isZero();
        assertThat(ClickHistogram.empty().logLoss()).isNaN();
        assertThat(ClickHistogram.empty().auc()).isNaN();
        assertThat(ClickHistogram.of(new double[] {0.3}, new double[] {1}).auc()).as("one class").isNaN();
    }

    @Test
    void aPredictionThatIsNoProbabilityOrALabelThatIsNoClickIsNamed() {
        assertThatThrownBy(() -> ClickHistogram.of(new double[] {0.2, 1.5}, new double[] {0, 1}))
                .hasMessageContaining("example 1 is predicted 1.5").hasMessageContaining("end the graph with a sigmoid");
        assertThatThrownBy(() -> ClickHistogram.of(new double[] {Double.NaN}, new double[] {0}))
                .hasMessageContaining("example 0 is predicted NaN");
        assertThatThrownBy(() -> ClickHistogram.of(new double[] {0.2}, new double[] {2}))
                .hasMessageContaining("example 0 is labelled 2.0; a click label is 0 or 1");
        assertThatThrownBy(() -> ClickHistogram.of(new double[] {0.2}, new double[0]))
                .hasMessageContaining("1 predictions for 0 labels");
    }

    @Test
    void aHistogramFromTheWireIsChecked() {
        long[] negative = new long[ClickHistogram.BUCKETS];
        negative[9] = -1;
        assertThat(new ClickHistogram(negative, new long[ClickHistogram.BUCKETS], 0).problem())
                .isEqualTo("bucket 9 has a negative count");
        assertThat(new ClickHistogram(null, new long[2], 0).problem()).contains("got none and 2");
        assertThat(new ClickHistogram(new long[ClickHistogram.BUCKETS], new long[ClickHistogram.BUCKETS],
                Double.POSITIVE_INFINITY).problem()).contains("logLossSum must be finite");
        assertThat(ClickHistogram.empty().problem()).isNull();
    }
}
