package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RowwiseAdagradTest {
    private static final OptimizerSettings SETTINGS = new OptimizerSettings(0.5, 0, false, 0.9, 0.999, 1e-8, 0.1, 0,
            0, 1.0, new ScheduleSettings(ScheduleType.CONSTANT, 0, 1, 1, 1, 0));

    @Test
    void oneAccumulatorPerRowGrowsByTheMeanSquaredGradientAsComputedByHand() {
        Optimizer rowwise = OptimizerType.ROWWISE_ADAGRAD.create(SETTINGS);
        assertThat(rowwise.rowStateFloats(2)).isEqualTo(1);
        assertThat(rowwise.rowStateFloats(64)).isEqualTo(1);
        assertThat(rowwise.rowStateInitialValue()).isEqualTo(0.1f);
        float[] row = {9, 1, 2, 0.1f, 9}; // [pad | p0 p1 | acc | pad]
        rowwise.applyRow(row, 1, 2, new float[] {0.3f, -0.4f}, 0, 1);
        // acc = 0.1 + (0.09 + 0.16) / 2 = 0.225; scale = 0.5 / sqrt(0.225) = 1.0540926
        assertThat(row[3]).isCloseTo(0.225f, within(1e-6f));
        assertThat(row[1]).isCloseTo(1 - 1.0540926f * 0.3f, within(1e-5f));
        assertThat(row[2]).isCloseTo(2 + 1.0540926f * 0.4f, within(1e-5f));
        rowwise.applyRow(row, 1, 2, new float[] {0.1f, 0.1f}, 0, 2);
        // acc = 0.225 + 0.01 = 0.235; scale = 0.5 / sqrt(0.235) = 1.0314212
        assertThat(row[3]).isCloseTo(0.235f, within(1e-6f));
        assertThat(row[1]).isCloseTo(0.6837722f - 0.10314212f, within(1e-5f));
        assertThat(row[2]).isCloseTo(2.4216370f - 0.10314212f, within(1e-5f));
        assertThat(row[0]).isEqualTo(9);
        assertThat(row[4]).isEqualTo(9);
    }

    @Test
    void itUpdatesRowsOnlyAndSaysSo() {
        Optimizer rowwise = OptimizerType.ROWWISE_ADAGRAD.create(SETTINGS);
        assertThat(rowwise.rowsOnly()).isTrue();
        assertThat(OptimizerType.ROWWISE_ADAGRAD.rowsOnly()).isTrue();
        assertThat(OptimizerType.ADAGRAD.rowsOnly()).isFalse();
        assertThatThrownBy(() -> rowwise.newState(4)).hasMessageContaining("sparse table rows only");
        assertThat(rowwise.describe()).startsWith("ROWWISE_ADAGRAD(lr=0.5");
    }
}
