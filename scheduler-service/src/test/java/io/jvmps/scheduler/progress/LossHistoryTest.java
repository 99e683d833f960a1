package io.jvmps.scheduler.progress;

import io.jvmps.common.protocol.ProgressReport;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LossHistoryTest {

    @Test
    void throughputComesFromConsecutiveReportsOfOneWorker() {
        LossHistory history = new LossHistory(10);
        history.add(0, report(10, 2.0, 1_000_000, 3_000_000), 1_000);
        history.add(1, report(10, 2.2, 0, 0), 1_000);
        history.add(0, report(20, 1.0, 3_000_000, 4_000_000), 3_000);

        List<LossHistory.Point> rank0 = history.snapshot().get(0);
        assertThat(rank0).hasSize(2);
        assertThat(rank0.get(0).pushBytesPerSecond()).isZero();
        assertThat(rank0.get(1).pushBytesPerSecond()).isCloseTo(1_000_000, within(1e-6));
        assertThat(rank0.get(1).pullBytesPerSecond()).isCloseTo(500_000, within(1e-6));
        assertThat(rank0.get(1).loss()).isEqualTo(1.0);
        assertThat(history.snapshot().get(1)).hasSize(1);
    }

    @Test
    void aFullHistoryKeepsEverySecondPointSoTheWholeRunStaysVisible() {
        LossHistory history = new LossHistory(4);
        for (int step = 0; step < 9; step++) {
            history.add(0, report(step, 1.0 / (step + 1), 0, 0), step);
        }
        List<Long> steps = history.snapshot().get(0).stream().map(LossHistory.Point::globalStep).toList();
        assertThat(steps).hasSizeLessThanOrEqualTo(4).startsWith(0L).endsWith(8L).isSorted();
    }

    @Test
    void refusesAUselessCapacity() {
        assertThatThrownBy(() -> new LossHistory(1)).hasMessageContaining("capacity");
    }

    private static ProgressReport report(long step, double loss, long pushed, long pulled) {
        return new ProgressReport("w", 1, (int) step, step, loss, 100, pushed, pulled);
    }
}
