package io.jvmps.common.sparse;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DistinctIdsTest {

    @Test
    void repeatsMapToTheirFirstOccurrenceAndRowsGatherAndSumBack() {
        DistinctIds d = DistinctIds.of(new long[] {7, -1, 7, 3, -1, 7});
        assertThat(d.ids()).containsExactly(7, -1, 3);
        assertThat(d.indexOf()).containsExactly(0, 1, 0, 2, 1, 0);
        assertThat(d.gather(new float[] {1, 10, 2, 20, 3, 30}, 2))
                .containsExactly(1, 10, 2, 20, 1, 10, 3, 30, 2, 20, 1, 10);
        assertThat(d.sum(new float[] {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}, 2))
                .containsExactly(10, 10, 7, 7, 4, 4);
        assertThat(DistinctIds.of(new long[0]).ids()).isEmpty();
    }
}
