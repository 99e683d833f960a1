package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The row form used by sparse tables ({@link Optimizer#applyRow}) is the same update as the dense form:
 * one implementation of each optimizer, two layouts. A row's values and state, after several updates with
 * a warm-up schedule, match a dense slice of the same length updated with the same gradients.
 */
class RowFormTest {

    @ParameterizedTest
    @EnumSource(value = OptimizerType.class, mode = EnumSource.Mode.EXCLUDE, names = "ROWWISE_ADAGRAD") // no dense form
    void rowUpdateMatchesDenseUpdate(OptimizerType type) {
        int dim = 7;
        OptimizerSettings settings = new OptimizerSettings(0.05, 0.9, type == OptimizerType.MOMENTUM, 0.9, 0.999,
                1e-8, 0.1, 0.01, 0.02, 1.0, new ScheduleSettings(ScheduleType.CONSTANT, 2, 1, 1, 1, 0));
        Optimizer optimizer = type.create(settings);
        Random random = new Random(42);
        float[] initial = new float[dim];
        for (int k = 0; k < dim; k++) {
            initial[k] = (float) random.nextGaussian();
        }
        INDArray dense = Nd4j.createFromArray(initial.clone());
        OptimizerState state = optimizer.newState(dim);
        int slots = optimizer.rowStateSlots();
        assertThat(slots).isEqualTo(state.slots());
        int offset = 3;
        float[] row = new float[offset + dim * (1 + slots) + 2];
        System.arraycopy(initial, 0, row, offset, dim);
        for (int s = 0; s < slots; s++) {
            java.util.Arrays.fill(row, offset + (s + 1) * dim, offset + (s + 2) * dim, optimizer.rowStateInitialValue());
        }
        for (long step = 1; step <= 5; step++) {
            float[] gradient = new float[dim + 1];
            for (int k = 0; k < dim; k++) {
                gradient[k + 1] = (float) random.nextGaussian();
            }
            float[] copy = java.util.Arrays.copyOfRange(gradient, 1, dim + 1);
            optimizer.apply(dense, Nd4j.createFromArray(copy), state, step);
            optimizer.applyRow(row, offset, dim, gradient, 1, step);
        }
        float[] expected = dense.toFloatVector();
        for (int k = 0; k < dim; k++) {
            assertThat(row[offset + k]).as("%s value %d", type, k).isCloseTo(expected[k], within(2e-5f));
        }
        for (int s = 0; s < slots; s++) {
            float[] slot = state.slot(s).toFloatVector();
            for (int k = 0; k < dim; k++) {
                assertThat(row[offset + (s + 1) * dim + k]).as("%s slot %d element %d", type, s, k)
                        .isCloseTo(slot[k], within(2e-5f));
            }
        }
        assertThat(row[0]).isZero();
        assertThat(row[row.length - 1]).isZero();
        assertThat(initial[0]).isNotCloseTo(row[offset], within(1e-4f));
    }
}
