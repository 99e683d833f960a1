package io.jvmps.client.dataset;

import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EpochBatchesTest {

    @ParameterizedTest(name = "N={0} W={1} B={2}")
    @CsvSource({"103, 3, 10", "100, 4, 25", "7, 7, 3", "1000, 2, 64", "10, 1, 4"})
    void everyWorkerHasTheSameStepsAndBatchSizesAndShardsAreDisjoint(int n, int workers, int batch) {
        int perWorker = n / workers;
        int expectedSteps = (perWorker + batch - 1) / batch;
        Set<Integer> seen = new HashSet<>();
        List<Integer> sizesOfRank0 = null;
        for (int rank = 0; rank < workers; rank++) {
            EpochBatches b = new EpochBatches(n, workers, rank, batch, 42, 3);
            assertThat(b.stepsPerEpoch()).isEqualTo(expectedSteps);
            assertThat(b.samplesPerWorker()).isEqualTo(perWorker);
            List<Integer> sizes = new ArrayList<>();
            for (int step = 0; step < b.stepsPerEpoch(); step++) {
                int[] idx = b.batchIndices(step);
                sizes.add(idx.length);
                for (int i : idx) {
                    assertThat(i).isBetween(0, n - 1);
                    assertThat(seen.add(i)).as("index %d appears twice", i).isTrue();
                }
            }
            assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(perWorker);
            assertThat(sizes.subList(0, sizes.size() - 1)).allMatch(s -> s == batch);
            if (sizesOfRank0 == null) {
                sizesOfRank0 = sizes;
            } else {
                assertThat(sizes).isEqualTo(sizesOfRank0);
            }
        }
        assertThat(seen).hasSize(perWorker * workers);
    }

    @Test
    void shardsTakeStridedPositionsOfOneSharedPermutation() {
        int n = 50;
        int workers = 4;
        // a single worker sees the whole permutation in order
        int[] permutation = new EpochBatches(n, 1, 0, n, 9, 2).batchIndices(0);
        assertThat(Arrays.stream(permutation).sorted().toArray()).isEqualTo(IntStream.range(0, n).toArray());
        assertThat(permutation).isNotEqualTo(IntStream.range(0, n).toArray());
        for (int rank = 0; rank < workers; rank++) {
            int[] mine = new EpochBatches(n, workers, rank, 100, 9, 2).batchIndices(0);
            assertThat(mine).hasSize(12);
            for (int k = 0; k < mine.length; k++) {
                assertThat(mine[k]).isEqualTo(permutation[k * workers + rank]);
            }
        }
    }

    @Test
    void deterministicForASeedAndDifferentAcrossEpochsAndSeeds() {
        int[] a = all(new EpochBatches(200, 2, 1, 16, 5, 0));
        assertThat(all(new EpochBatches(200, 2, 1, 16, 5, 0))).isEqualTo(a);
        assertThat(all(new EpochBatches(200, 2, 1, 16, 5, 1))).isNotEqualTo(a);
        assertThat(all(new EpochBatches(200, 2, 1, 16, 6, 0))).isNotEqualTo(a);
    }

    @Test
    void rejectsImpossibleSchedules() {
        assertThatThrownBy(() -> new EpochBatches(3, 4, 0, 1, 0, 0)).isInstanceOf(PsException.class)
                .hasMessageContaining("too small for 4 workers");
        assertThatThrownBy(() -> new EpochBatches(10, 2, 2, 1, 0, 0)).hasMessageContaining("rank 2");
        assertThatThrownBy(() -> new EpochBatches(10, 2, 0, 0, 0, 0)).hasMessageContaining("batch size");
        assertThatThrownBy(() -> new EpochBatches(10, 2, 0, 3, 0, 0).batchIndices(2)).hasMessageContaining("step 2");
    }

    @Test
    void shardRangesAreContiguousBalancedAndCoverEverything() {
        for (int workers = 1; workers <= 5; workers++) {
            int expectedFrom = 0;
            for (int rank = 0; rank < workers; rank++) {
                IndexRange r = EpochBatches.shardRange(23, workers, rank);
                assertThat(r.from()).isEqualTo(expectedFrom);
                assertThat(r.size()).isBetween(23 / workers, 23 / workers + 1);
                expectedFrom = r.to();
            }
            assertThat(expectedFrom).isEqualTo(23);
        }
        assertThat(EpochBatches.shardRange(2, 3, 2)).isEqualTo(new IndexRange(2, 2));
    }

    private static int[] all(EpochBatches b) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < b.stepsPerEpoch(); s++) {
            Arrays.stream(b.batchIndices(s)).forEach(out::add);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
