package io.jvmps.common.sparse;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class RepeatFinderTest {

    @Test
    void namesTheFirstPositionWhoseIdCameBefore() {
        assertThat(RepeatFinder.firstRepeat(new long[] {})).isEqualTo(-1);
        assertThat(RepeatFinder.firstRepeat(new long[] {5})).isEqualTo(-1);
        assertThat(RepeatFinder.firstRepeat(new long[] {5, 6, 7, Long.MIN_VALUE, Long.MAX_VALUE, 0, -1})).isEqualTo(-1);
        assertThat(RepeatFinder.firstRepeat(new long[] {5, 6, 5, 6})).isEqualTo(2);
        assertThat(RepeatFinder.firstRepeat(new long[] {0, 0})).isEqualTo(1);
        assertThat(RepeatFinder.firstRepeat(new long[] {-1, 3, 4, -1})).isEqualTo(3);
    }

    @Test
    void aBatchDoesNotSeeTheIdsOfTheBatchBefore() {
        long[] batch = {11, 12, 13, 14, 15, 16, 17, 18};
        for (int i = 0; i < 1000; i++) { // the same ids again and again: each batch alone is distinct
            assertThat(RepeatFinder.firstRepeat(batch)).isEqualTo(-1);
        }
        assertThat(RepeatFinder.firstRepeat(new long[] {1, 2, 3})).isEqualTo(-1); // a smaller batch on a larger set
    }

    @Test
    void agreesWithTheFullDeduplicationOnRandomBatches() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 300; trial++) {
            int n = 1 + random.nextInt(600);
            long[] ids = new long[n];
            long range = 1 + random.nextInt(2 * n); // from many repeats to none
            for (int i = 0; i < n; i++) {
                ids[i] = (random.nextLong(range) << 20) ^ 0x5DEECE66DL; // ids that share low bits
            }
            int expected = -1;
            int[] indexOf = DistinctIds.of(ids).indexOf();
            int seen = 0;
            for (int i = 0; i < n; i++) {
                if (indexOf[i] < seen) {
                    expected = i;
                    break;
                }
                seen++;
            }
            assertThat(RepeatFinder.firstRepeat(ids)).as("trial %d", trial).isEqualTo(expected);
        }
    }
}
