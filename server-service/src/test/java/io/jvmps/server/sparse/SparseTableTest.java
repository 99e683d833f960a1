package io.jvmps.server.sparse;

import io.jvmps.server.store.MemoryBudget;

import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SparseTableTest {
    private static final OptimizerSettings SETTINGS = new OptimizerSettings(0.1, 0.9, false, 0.9, 0.999, 1e-8);

    private static SparseTables tables(long maxBytes) {
        return new SparseTables(OptimizerType.SGD, type -> type.create(SETTINGS), new MemoryBudget(maxBytes));
    }

    private static SparseTable table(String optimizer, int dim) {
        return tables(1L << 30).declare(new SparseTableSpec("emb", dim, 7, 0.5f, optimizer));
    }

    private static float[] pull(SparseTable table, long... ids) {
        float[] out = new float[ids.length * table.spec().dim()];
        table.pull(ids, out);
        return out;
    }

    @Test
    void untouchedRowsReadTheirSeededInitialValueAndAllocateNothing() {
        SparseTable a = table(null, 8);
        SparseTable b = table("ADAM", 8);
        float[] first = pull(a, 1, 2, Long.MIN_VALUE, 1L << 60);
        assertThat(pull(b, 1, 2, Long.MIN_VALUE, 1L << 60)).containsExactly(first);
        assertThat(Arrays.copyOfRange(first, 0, 8)).isNotEqualTo(Arrays.copyOfRange(first, 8, 16));
        for (float v : first) {
            assertThat(v).isBetween(-0.5f, 0.5f);
        }
        assertThat(a.rows()).isZero();
        assertThat(a.bytes()).isZero();
        SparseTable otherSeed = tables(1L << 30).declare(new SparseTableSpec("emb", 8, 8, 0.5f, null));
        assertThat(pull(otherSeed, 1)).isNotEqualTo(Arrays.copyOfRange(first, 0, 8));
    }

    @Test
    void aRowwiseAdagradTableKeepsOneAccumulatorPerRowAndChargesForIt() {
        SparseTable table = table("ROWWISE_ADAGRAD", 8);
        float[] before = pull(table, 5);
        float[] gradient = new float[8];
        Arrays.fill(gradient, 0.5f);
        table.push(1, new long[] {5}, gradient, UpdateKind.GRADIENT);
        float acc = table.optimizer().rowStateInitialValue() + 0.25f; // mean of the squared gradient
        float scale = (float) (0.1 / (Math.sqrt(acc) + 1e-8));
        float[] after = pull(table, 5);
        for (int k = 0; k < 8; k++) {
            assertThat(after[k]).isCloseTo(before[k] - scale * 0.5f, within(1e-6f));
        }
        SparseRows copy = table.copy();
        assertThat(copy.stateFloats()).isEqualTo(1);
        assertThat(copy.stride()).isEqualTo(9);
        assertThat(copy.data()[8]).isCloseTo(acc, within(1e-6f));
        SparseTable adagrad = table("ADAGRAD", 8);
        adagrad.push(1, new long[] {5}, gradient, UpdateKind.GRADIENT);
        assertThat(adagrad.copy().stride()).isEqualTo(16);
        assertThat(table.status().optimizer()).startsWith("ROWWISE_ADAGRAD");
    }

    @Test
    void theHeldIdsAreListedAscendingPageByPage() {
        SparseTable table = table(null, 1);
        assertThat(table.ids(null, 10).ids()).isEmpty();
        table.push(new long[] {40, -7, Long.MAX_VALUE, 3, Long.MIN_VALUE}, new float[] {1, 1, 1, 1, 1},
                UpdateKind.GRADIENT);
        pull(table, 99); // a pull creates no row
        var first = table.ids(null, 2);
        assertThat(first.ids()).containsExactly(Long.MIN_VALUE, -7);
        assertThat(first.more()).isTrue();
        var second = table.ids(-7L, 2);
        assertThat(second.ids()).containsExactly(3, 40);
        var last = table.ids(40L, 2);
        assertThat(last.ids()).containsExactly(Long.MAX_VALUE);
        assertThat(last.more()).isFalse();
        assertThat(table.ids(5L, 10).ids()).containsExactly(40, Long.MAX_VALUE);
    }

    @Test
    void repeatedIdsAreSummedBeforeOneOptimizerStepAndOnlyTouchedRowsChange() {
        SparseTable table = table("ADAM", 2);
        float[] before = pull(table, 10, 11, 12);
        table.push(new long[] {10, 12, 10}, new float[] {1, 2, 0.5f, 0.5f, 3, -4}, UpdateKind.GRADIENT);

        Optimizer adam = OptimizerType.ADAM.create(SETTINGS);
        float[] expected10 = {before[0], before[1], 0, 0, 0, 0};
        adam.applyRow(expected10, 0, 2, new float[] {4, -2}, 0, 1);
        float[] after = pull(table, 10, 11, 12);
        assertThat(after[0]).isCloseTo(expected10[0], within(1e-6f));
        assertThat(after[1]).isCloseTo(expected10[1], within(1e-6f));
        assertThat(Arrays.copyOfRange(after, 2, 4)).containsExactly(Arrays.copyOfRange(before, 2, 4));
        assertThat(after[4]).isCloseTo(before[4] - 0.1f, within(1e-5f));
        assertThat(table.rows()).isEqualTo(2);
    }

    @Test
    void lazyAdamCorrectsBiasByEachRowsOwnUpdateCount() {
        SparseTable table = table("ADAM", 1);
        for (int i = 0; i < 3; i++) {
            table.push(new long[] {1}, new float[] {1}, UpdateKind.GRADIENT);
        }
        float late = pull(table, 2)[0];
        table.push(new long[] {2}, new float[] {1}, UpdateKind.GRADIENT);
        // a row's first Adam step moves it by lr * g / (|g| + eps), whatever other rows did before
        assertThat(pull(table, 2)[0]).isCloseTo(late - 0.1f, within(1e-5f));
    }

    @Test
    void deltasAreAddedWithoutTouchingOptimizerState() {
        SparseTable table = table("ADAM", 1);
        float start = pull(table, 3)[0];
        table.push(new long[] {3}, new float[] {0.25f}, UpdateKind.DELTA);
        assertThat(pull(table, 3)[0]).isCloseTo(start + 0.25f, within(1e-6f));
        table.push(new long[] {3}, new float[] {-2}, UpdateKind.GRADIENT);
        assertThat(pull(table, 3)[0]).isCloseTo(start + 0.25f + 0.1f, within(1e-5f));
    }

    @Test
    void rejectedPushesChangeNothing() {
        SparseTable table = table(null, 2);
        float[] before = pull(table, 1, 2);
        assertThatThrownBy(() -> table.push(new long[] {1, 2}, new float[] {1, 1, Float.NaN, 1}, UpdateKind.GRADIENT))
                .isInstanceOf(PsException.class).hasMessageContaining("[NON_FINITE]").hasMessageContaining("id 2");
        assertThatThrownBy(() -> table.push(new long[] {1, 2}, new float[] {1, 1, 1}, UpdateKind.GRADIENT))
                .hasMessageContaining("[SHAPE_MISMATCH]").hasMessageContaining("must be 4 floats, got 3");
        assertThatThrownBy(() -> table.pull(new long[] {1, 1}, new float[4]))
                .hasMessageContaining("[INVALID_ARGUMENT]").hasMessageContaining("id 1 twice");
        assertThat(pull(table, 1, 2)).containsExactly(before);
        assertThat(table.rows()).isZero();
    }

    @Test
    void theMemoryCapRefusesAPushWholeAndNamesTheSetting() {
        SparseTables small = tables(500); // a first block of 16 rows of dim 4 needs 960 bytes
        SparseTable table = small.declare(new SparseTableSpec("emb", 4, 1, 0.1f, null));
        assertThatThrownBy(() -> table.push(new long[] {1}, new float[4], UpdateKind.GRADIENT))
                .hasMessageContaining("[RESOURCE_EXHAUSTED]").hasMessageContaining("ps.sparse.max-bytes=500");
        assertThat(table.rows()).isZero();
        assertThat(small.budget().used()).isZero();
    }

    @Test
    void aSmallTableIsChargedForItsRowsNotForAWholeBlock() {
        SparseTables all = tables(1L << 30);
        SparseTable table = all.declare(new SparseTableSpec("tiny", 4, 1, 0.1f, "ADAM"));
        float[] grads = new float[8];
        Arrays.fill(grads, 0.5f);
        table.push(new long[] {1, 2}, grads, UpdateKind.GRADIENT);
        float[] trained = pull(table, 1, 2);
        long perRow = 4 * 4 * 3 + 8 + 4 + 32; // values and two Adam slots, id, update count, index entry
        assertThat(table.bytes()).as("2 rows of dim 4 (it charged 15 MiB)").isEqualTo(RowBlocks.FIRST_ROWS * perRow);
        assertThat(all.budget().used()).isEqualTo(table.bytes());

        long[] ids = new long[40];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 100 + i;
        }
        table.push(ids, new float[ids.length * 4], UpdateKind.GRADIENT);
        assertThat(table.rows()).isEqualTo(42);
        assertThat(table.bytes()).as("grown 16 -> 32 -> 64 rows").isEqualTo(64 * perRow);
        assertThat(all.budget().used()).isEqualTo(table.bytes());
        assertThat(pull(table, 1, 2)).as("rows kept their trained values through the growth").containsExactly(trained);
        assertThat(trained).as("and they were trained").doesNotContain(pull(tables(1L << 30)
                .declare(new SparseTableSpec("tiny", 4, 1, 0.1f, "ADAM")), 1, 2)[0]);
    }

    @Test
    void adamRowsCostCloseToThreeFloatsPerValue() {
        int dim = 64;
        int rows = 50_000;
        SparseTable table = table("ADAM", dim);
        long[] ids = new long[1000];
        float[] grads = new float[ids.length * dim];
        Arrays.fill(grads, 0.01f);
        for (int start = 0; start < rows; start += ids.length) {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = (start + i) * 7919L;
            }
            table.push(ids, grads, UpdateKind.GRADIENT);
        }
        assertThat(table.rows()).isEqualTo(rows);
        long ideal = (long) rows * dim * 4 * 3;
        assertThat(table.bytes()).isBetween(ideal, (long) (ideal * 1.10) + (4L << 20));
    }

    @Test
    void declarationsAreIdempotentAndConflictsAreRefused() {
        SparseTables all = tables(1L << 20);
        SparseTable first = all.declare(new SparseTableSpec("emb", 4, 1, 0.1f, "adagrad"));
        assertThat(all.declare(new SparseTableSpec("emb", 4, 1, 0.1f, "ADAGRAD"))).isSameAs(first);
        assertThatThrownBy(() -> all.declare(new SparseTableSpec("emb", 8, 1, 0.1f, "ADAGRAD")))
                .hasMessageContaining("[INVALID_ARGUMENT]").hasMessageContaining("dim=4");
        assertThatThrownBy(() -> all.declare(new SparseTableSpec("x", 4, 1, 0.1f, "LION")))
                .hasMessageContaining("unknown optimizer 'LION'");
        assertThatThrownBy(() -> all.require("nope")).hasMessageContaining("[UNKNOWN_KEY]");
        assertThatThrownBy(() -> new SparseTableSpec("bad name", 4, 1, 0.1f, null))
                .hasMessageContaining("[INVALID_ARGUMENT]");
    }

    @Test
    void initRowsCreatesTheOwnedRowsOfTheVocabularyAtDeclaration() {
        SparseTables all = tables(1L << 30);
        SparseTableSpec spec = new SparseTableSpec("vocab", 4, 3, 0.2f, null, 100L);
        SparseTable table = all.declare(spec, id -> id % 2 == 0);
        assertThat(table.rows()).isEqualTo(50);
        SparseTable lazy = tables(1L << 30).declare(new SparseTableSpec("vocab", 4, 3, 0.2f, null));
        assertThat(pull(table, 2, 3, 99, 100)).containsExactly(pull(lazy, 2, 3, 99, 100));
        assertThat(all.declare(spec, id -> true)).isSameAs(table);
        assertThat(table.rows()).isEqualTo(50);
        assertThatThrownBy(() -> all.declare(new SparseTableSpec("vocab", 4, 3, 0.2f, null, 10L)))
                .hasMessageContaining("initRows=100");

        SparseTables small = tables(1 << 20);
        assertThatThrownBy(() -> small.declare(new SparseTableSpec("big", 64, 1, 0.1f, null, 100_000L)))
                .hasMessageContaining("[RESOURCE_EXHAUSTED]").hasMessageContaining("initial rows");
        assertThat(small.all()).isEmpty();
        assertThat(small.budget().used()).isZero();
    }
}
