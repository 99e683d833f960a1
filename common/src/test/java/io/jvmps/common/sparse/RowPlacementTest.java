package io.jvmps.common.sparse;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowPlacementTest {

    @Test
    void sequentialAndStridedIdsSpreadEvenly() {
        for (long stride : new long[] {1, 2, 1024, 1L << 32}) {
            int[] counts = new int[3];
            for (long i = 0; i < 90_000; i++) {
                counts[RowPlacement.serverOf(i * stride - 45_000 * stride, 3)]++;
            }
            for (int c : counts) {
                assertThat(c).as("stride %d", stride).isBetween(29_000, 31_000);
            }
        }
    }

    @Test
    void placementIsFixedAndChecked() {
        assertThat(RowPlacement.serverOf(Long.MIN_VALUE, 1)).isZero();
        assertThat(RowPlacement.serverOf(123456789L, 7)).isEqualTo(RowPlacement.serverOf(123456789L, 7));
        assertThat(RowPlacement.mix(0)).isEqualTo(0xE220A8397B1DCDAFL);
        assertThatThrownBy(() -> RowPlacement.serverOf(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
