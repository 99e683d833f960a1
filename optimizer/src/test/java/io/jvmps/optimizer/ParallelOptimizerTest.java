package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A slice updated in parallel spans ends bit for bit where the same updates on one thread end: every element
 * is updated exactly once per step (a gap or an overlap between spans would show), for each optimizer.
 */
class ParallelOptimizerTest {
    private static final int LENGTH = 3 * ParallelOptimizer.MIN_SPAN + 12_345; // four uneven spans on 4 threads

    @ParameterizedTest
    @EnumSource(value = OptimizerType.class, mode = EnumSource.Mode.EXCLUDE, names = "ROWWISE_ADAGRAD") // rows only
    void parallelSpansGiveTheSingleThreadResult(OptimizerType type) {
        OptimizerSettings settings = new OptimizerSettings(0.05, 0.9, false, 0.9, 0.999, 1e-8, 0.1, 0.01, 0.02, 1.0,
                new ScheduleSettings(ScheduleType.CONSTANT, 0, 1, 1, 1, 0));
        Optimizer single = type.create(settings);
        java.util.Random rng = new java.util.Random(7);
        INDArray start = gaussian(rng);
        INDArray expected = start.dup();
        INDArray actual = start.dup();
        OptimizerState expectedState = single.newState(LENGTH);
        try (ParallelOptimizer parallel = new ParallelOptimizer(type.create(settings), 4)) {
            OptimizerState actualState = parallel.newState(LENGTH);
            for (long step = 1; step <= 3; step++) {
                INDArray gradient = gaussian(rng);
                single.apply(expected, gradient, expectedState, step);
                parallel.apply(actual, gradient, actualState, step);
            }
            assertSame(actual, expected, "values");
            for (int s = 0; s < expectedState.slots(); s++) {
                assertSame(actualState.slot(s), expectedState.slot(s), "state slot " + s);
            }
            assertThat(actual.toFloatVector()).isNotEqualTo(start.toFloatVector());
        }
    }

    /** Bit-for-bit equality, naming the first element that differs (AssertJ's diff of 800k floats takes minutes). */
    private static void assertSame(INDArray actual, INDArray expected, String what) {
        float[] a = actual.toFloatVector();
        float[] e = expected.toFloatVector();
        int first = java.util.Arrays.mismatch(a, e);
        assertThat(first).as(what + ": first differing element " + first
                + (first >= 0 && first < a.length ? " (" + a[first] + " vs " + e[first] + ")" : "")).isEqualTo(-1);
    }

    private static INDArray gaussian(java.util.Random rng) {
        float[] values = new float[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            values[i] = (float) rng.nextGaussian();
        }
        return Nd4j.createFromArray(values);
    }

    @Test
    void viewsAreRefusedRatherThanUpdatedInTheWrongPlace() {
        Optimizer sgd = OptimizerType.SGD.create(OptimizerSettings.defaults(0.1));
        INDArray whole = Nd4j.zeros(DataType.FLOAT, 10);
        INDArray view = whole.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(2, 6));
        assertThatThrownBy(() -> sgd.apply(view, Nd4j.ones(DataType.FLOAT, 4), OptimizerState.NONE, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole float32 array");
        assertThatThrownBy(() -> new ParallelOptimizer(sgd, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
