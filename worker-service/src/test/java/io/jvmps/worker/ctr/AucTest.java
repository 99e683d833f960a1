package io.jvmps.worker.ctr;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AucTest {

    @Test
    void ranksClicksAboveNonClicks() {
        byte[] labels = {0, 0, 1, 1};
        assertThat(Auc.of(new float[] {0.1f, 0.2f, 0.8f, 0.9f}, labels)).isEqualTo(1.0);
        assertThat(Auc.of(new float[] {0.9f, 0.8f, 0.2f, 0.1f}, labels)).isEqualTo(0.0);
        assertThat(Auc.of(new float[] {0.5f, 0.5f, 0.5f, 0.5f}, labels)).isEqualTo(0.5);
        // pairs (click, non-click): (0.3 vs 0.1, 0.4) -> 1 + 0, (0.8 vs both) -> 2; 3 of 4
        assertThat(Auc.of(new float[] {0.1f, 0.4f, 0.3f, 0.8f}, labels)).isCloseTo(0.75, within(1e-12));
        assertThat(Auc.of(new float[] {0.1f, 0.2f}, new byte[] {1, 1})).isNaN();
    }
}
