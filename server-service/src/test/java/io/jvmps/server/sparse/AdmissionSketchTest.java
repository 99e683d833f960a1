package io.jvmps.server.sparse;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdmissionSketchTest {
    @Test
    void estimatesAreNeverBelowTheTrueCountAndMostlyExact() {
        AdmissionSketch sketch = new AdmissionSketch(1 << 12);
        Map<Long, Integer> truth = new HashMap<>();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 20_000; i++) { // 2,000 ids, fewer pushes than the aging point (10 x 4,096)
            long id = random.nextLong(2_000) * 7_919L;
            sketch.add(id);
            truth.merge(id, 1, Integer::sum);
        }
        int exact = 0;
        for (Map.Entry<Long, Integer> e : truth.entrySet()) {
            int estimate = sketch.estimate(e.getKey());
            assertThat(estimate).isGreaterThanOrEqualTo(Math.min(255, e.getValue()));
            exact += estimate == e.getValue() ? 1 : 0;
        }
        assertThat(exact).isGreaterThan(truth.size() * 95 / 100);
        assertThat(sketch.estimate(-1)).isLessThanOrEqualTo(1);
    }

    @Test
    void countsAreHalvedAfterTenTimesTheWidthOfPushesSoOldCountsFade() {
        AdmissionSketch sketch = new AdmissionSketch(16);
        for (int i = 0; i < 8; i++) {
            sketch.add(99);
        }
        assertThat(sketch.estimate(99)).isEqualTo(8);
        for (int i = 0; i < 10 * 16 - 8; i++) { // the 160th push ages the counters
            sketch.add(1_000_000 + i % 3);
        }
        assertThat(sketch.estimate(99)).isBetween(4, 5);
        assertThat(sketch.additions()).isZero();
    }

    @Test
    void countersSaturateAndSavedSketchesMergeAndRestore() {
        AdmissionSketch a = new AdmissionSketch(1 << 10);
        AdmissionSketch b = new AdmissionSketch(1 << 10);
        for (int i = 0; i < 300; i++) {
            a.add(5);
        }
        assertThat(a.estimate(5)).isEqualTo(255);
        b.add(6);
        b.add(6);
        AdmissionSketch restored = AdmissionSketch.restore(a.counters(), a.additions());
        restored.merge(b);
        assertThat(restored.estimate(5)).isEqualTo(255);
        assertThat(restored.estimate(6)).isEqualTo(2);
        assertThat(restored.additions()).isEqualTo(300);
        assertThatThrownBy(() -> AdmissionSketch.restore(new byte[12], 0)).hasMessageContaining("12 counters");
        assertThatThrownBy(() -> a.merge(new AdmissionSketch(16))).hasMessageContaining("width");
    }
}
