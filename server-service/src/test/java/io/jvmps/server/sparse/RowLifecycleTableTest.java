package io.jvmps.server.sparse;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.RowInitializer;
import io.jvmps.common.sparse.RowLifecycle;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.MemoryBudget;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Admission and eviction of a sparse table's rows ({@link RowLifecycle}) on one server. */
class RowLifecycleTableTest {
    private static final OptimizerSettings SETTINGS = new OptimizerSettings(0.1, 0.9, false, 0.9, 0.999, 1e-8);
    private static final int DIM = 4;

    private static SparseTables tables(MemoryBudget budget) {
        return new SparseTables(OptimizerType.SGD, type -> type.create(SETTINGS), budget);
    }

    private static SparseTable table(RowLifecycle lifecycle) {
        return tables(new MemoryBudget(1L << 30)).declare(spec(lifecycle));
    }

    private static SparseTableSpec spec(RowLifecycle lifecycle) {
        return new SparseTableSpec("emb", DIM, 7, 0.5f, "SGD").withLifecycle(lifecycle);
    }

    private static float[] initial(long id) {
        float[] v = new float[DIM];
        RowInitializer.fill(7, id, 0.5f, v, 0, DIM);
        return v;
    }

    private static float[] pull(SparseTable table, long id) {
        float[] out = new float[DIM];
        table.pull(new long[] {id}, out);
        return out;
    }

    private static float[] ones() {
        return new float[] {1, 1, 1, 1};
    }

    @Test
    void anIdGetsARowOnlyOnItsThirdPushAndItsEarlierGradientsAreDroppedAndCounted() {
        SparseTable table = table(new RowLifecycle(3, 0));
        assertThat(table.push(1, new long[] {42}, ones(), UpdateKind.GRADIENT)).isZero();
        assertThat(table.push(2, new long[] {42}, ones(), UpdateKind.GRADIENT)).isZero();
        assertThat(table.rows()).isZero();
        assertThat(pull(table, 42)).containsExactly(initial(42)); // lookups read the initial value meanwhile
        assertThat(table.push(3, new long[] {42}, ones(), UpdateKind.GRADIENT)).isEqualTo(1);
        float[] expected = initial(42);
        for (int k = 0; k < DIM; k++) {
            expected[k] -= 0.1f; // only the third gradient was applied
        }
        assertThat(pull(table, 42)).containsExactly(expected);
        var status = table.status();
        assertThat(status.admitted()).isEqualTo(1);
        assertThat(status.dropped()).isEqualTo(2);
        assertThat(status.rows()).isEqualTo(1);
        // an admitted id's pushes all apply from then on
        assertThat(table.push(4, new long[] {42, 43}, new float[8], UpdateKind.GRADIENT)).isEqualTo(1);
        assertThat(table.status().dropped()).isEqualTo(3);
    }

    @Test
    void withoutALifecycleEveryIdGetsARowAtOnceAndRowsStay() {
        SparseTable table = table(RowLifecycle.KEEP_ALL);
        table.push(1, new long[] {1, 2}, new float[8], UpdateKind.GRADIENT);
        table.push(1_000_000, new long[] {3}, ones(), UpdateKind.GRADIENT);
        assertThat(table.rows()).isEqualTo(3);
        assertThat(table.status().evicted()).isZero();
        assertThat(table.status().dropped()).isZero();
    }

    @Test
    void aRowNoPushTouchedForMoreThanItsStepsIsRemovedAndComesBackFresh() {
        SparseTable table = table(new RowLifecycle(1, 10));
        table.push(1, new long[] {1, 2}, new float[] {1, 1, 1, 1, 2, 2, 2, 2}, UpdateKind.GRADIENT);
        float[] trained = pull(table, 2);
        for (long step = 2; step <= 11; step++) {
            table.push(step, new long[] {2}, new float[DIM], UpdateKind.GRADIENT);
        }
        assertThat(table.rows()).isEqualTo(2); // row 1 is idle for exactly 10 steps: kept
        for (long step = 12; step <= 16; step++) {
            table.push(step, new long[] {2}, new float[DIM], UpdateKind.GRADIENT);
        }
        assertThat(table.rows()).isEqualTo(1);
        assertThat(table.status().evicted()).isEqualTo(1);
        assertThat(pull(table, 1)).containsExactly(initial(1));
        assertThat(pull(table, 2)).containsExactly(trained); // zero gradients since: unchanged
        table.push(17, new long[] {1}, ones(), UpdateKind.GRADIENT);
        float[] fresh = initial(1);
        for (int k = 0; k < DIM; k++) {
            fresh[k] -= 0.1f;
        }
        assertThat(pull(table, 1)).containsExactly(fresh);
    }

    @Test
    void evictionGivesItsMemoryBackSoAnEndlessStreamOfIdsStaysWithinTheCap() {
        MemoryBudget budget = new MemoryBudget(8L << 20);
        SparseTable table = tables(budget).declare(spec(new RowLifecycle(1, 20)));
        long peak = 0;
        for (long step = 1; step <= 2_000; step++) { // 512 new ids a step: 1 M rows in all, never more than ~13 k alive
            long[] ids = new long[512];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = step * 512 + i;
            }
            table.push(step, ids, new float[ids.length * DIM], UpdateKind.GRADIENT);
            peak = Math.max(peak, budget.used());
        }
        assertThat(table.rows()).isLessThanOrEqualTo(512L * 26);
        assertThat(table.status().evicted()).isEqualTo(2_000L * 512 - table.rows());
        assertThat(peak).isLessThan(8L << 20);
    }

    @Test
    void rowsThatSurviveEvictionKeepTheirOwnValuesWhileOthersMoveIntoFreedPlaces() {
        SparseTable table = table(new RowLifecycle(1, 8)); // swept every 2 steps: rows touched before step - 8 go
        Map<Long, float[]> reference = new HashMap<>();
        Map<Long, Long> lastTouch = new HashMap<>();
        SplittableRandom random = new SplittableRandom(3);
        long evicted = 0;
        for (long step = 1; step <= 400; step++) {
            long[] ids = random.longs(0, 300).distinct().limit(20).toArray();
            float[] gradient = new float[ids.length * DIM];
            for (int i = 0; i < gradient.length; i++) {
                gradient[i] = (float) random.nextDouble(-1, 1);
            }
            table.push(step, ids, gradient, UpdateKind.GRADIENT);
            for (int i = 0; i < ids.length; i++) {
                float[] row = reference.computeIfAbsent(ids[i], RowLifecycleTableTest::initial);
                for (int k = 0; k < DIM; k++) {
                    row[k] -= 0.1f * gradient[i * DIM + k];
                }
                lastTouch.put(ids[i], step);
            }
            if (step % 2 == 0) {
                for (Map.Entry<Long, Long> e : Map.copyOf(lastTouch).entrySet()) {
                    if (e.getValue() < step - 8) {
                        reference.remove(e.getKey());
                        lastTouch.remove(e.getKey());
                        evicted++;
                    }
                }
            }
            for (long id : ids) {
                assertThat(pull(table, id)).containsExactly(reference.get(id));
            }
        }
        assertThat(table.ids(null, 10_000).ids()).containsExactlyInAnyOrder(
                reference.keySet().stream().mapToLong(Long::longValue).toArray());
        for (long id : reference.keySet()) {
            assertThat(pull(table, id)).containsExactly(reference.get(id));
        }
        assertThat(table.status().evicted()).isEqualTo(evicted).isPositive();
    }

    @Test
    void aFullTableThatEvictsWhenFullGivesUpItsLeastUpdatedRowsInsteadOfRefusingThePush() {
        MemoryBudget budget = new MemoryBudget(1L << 20);
        SparseTable table = tables(budget).declare(spec(new RowLifecycle(1, 0, true)));
        long[] hot = {1, 2, 3};
        for (long step = 1; step <= 5; step++) { // three rows updated five times each
            table.push(step, hot, new float[hot.length * DIM], UpdateKind.GRADIENT);
        }
        float[] hotRow = pull(table, 2);
        long next = 1_000;
        for (long step = 6; step <= 3_000; step++) { // then 64 new ids a step, forever: far beyond the 1 MiB cap
            long[] ids = new long[65];
            ids[0] = 1 + step % 3; // one hot row touched again
            for (int i = 1; i < ids.length; i++) {
                ids[i] = next++;
            }
            table.push(step, ids, new float[ids.length * DIM], UpdateKind.GRADIENT);
            assertThat(budget.used()).isLessThanOrEqualTo(1L << 20);
        }
        assertThat(table.status().evicted()).isPositive();
        assertThat(table.rows()).isLessThan(3_000L * 64);
        assertThat(pull(table, 2)).as("a much-updated row is kept").containsExactly(hotRow);
        long[] held = table.ids(null, 100_000).ids();
        assertThat(held).contains(1, 2, 3).contains(next - 1); // the newest push's rows are there
    }

    @Test
    void withoutEvictWhenFullAFullTableRefusesThePushAndChangesNothing() {
        MemoryBudget budget = new MemoryBudget(64 << 10);
        SparseTable table = tables(budget).declare(spec(new RowLifecycle(1, 0, false)));
        long id = 0;
        PsException refused = null;
        while (refused == null) {
            long[] ids = new long[64];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = id++;
            }
            try {
                table.push(1, ids, new float[ids.length * DIM], UpdateKind.GRADIENT);
            } catch (PsException e) {
                refused = e;
            }
        }
        assertThat(refused.code().name()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(table.status().evicted()).isZero();
    }

    @Test
    void leastValuableRowsAreTheLeastUpdatedThenTheLongestIdleAndNeverTheKeptOnes() {
        RowBlocks blocks = new RowBlocks(1, 0, 0f, true);
        float[] zero = {0};
        int[] updates = {3, 0, 1, 0, 2, 0};
        long[] clocks = {1, 9, 2, 4, 3, 6};
        for (int row = 0; row < updates.length; row++) {
            blocks.append(row, zero, 0);
            for (int u = 0; u < updates[row]; u++) {
                blocks.nextStep(row);
            }
            blocks.touch(row, clocks[row]);
        }
        java.util.BitSet keep = new java.util.BitSet();
        assertThat(LeastValuableRows.select(blocks, 2, keep).stream().toArray()).containsExactly(3, 5); // 0 updates, oldest
        assertThat(LeastValuableRows.select(blocks, 4, keep).stream().toArray()).containsExactly(1, 2, 3, 5);
        keep.set(3);
        assertThat(LeastValuableRows.select(blocks, 2, keep).stream().toArray()).containsExactly(1, 5);
    }

    @Test
    void aDeclarationWithAnotherLifecycleIsRefused() {
        SparseTables tables = tables(new MemoryBudget(1L << 30));
        tables.declare(spec(new RowLifecycle(2, 100)));
        assertThatThrownBy(() -> tables.declare(spec(RowLifecycle.KEEP_ALL)))
                .isInstanceOf(PsException.class).hasMessageContaining("admitAfter=2, evictAfterSteps=100");
        assertThat(tables.declare(spec(new RowLifecycle(2, 100))).spec().lifecycle().admitAfter()).isEqualTo(2);
    }

    @Test
    void badLifecyclesAreRefusedNamingTheField() {
        assertThatThrownBy(() -> new RowLifecycle(0, 0)).hasMessageContaining("admitAfter");
        assertThatThrownBy(() -> new RowLifecycle(256, 0)).hasMessageContaining("admitAfter");
        assertThatThrownBy(() -> new RowLifecycle(1, -1)).hasMessageContaining("evictAfterSteps");
        assertThat(new SparseTableSpec("t", 2, 1, 0f, null).lifecycle()).isEqualTo(RowLifecycle.KEEP_ALL);
    }

    @Test
    void aCopyRestoredElsewhereKeepsTheAdmissionCountsAndTheRowsClocks() {
        RowLifecycle lifecycle = new RowLifecycle(3, 10);
        SparseTable before = table(lifecycle);
        before.push(1, new long[] {5, 6}, new float[8], UpdateKind.GRADIENT); // 5 and 6 seen once
        before.push(2, new long[] {5, 6}, new float[8], UpdateKind.GRADIENT); // twice
        before.push(3, new long[] {5, 7, 8}, new float[12], UpdateKind.GRADIENT); // 5 admitted; 7, 8 once
        SparseTable after = table(lifecycle);
        after.replaceWith(before.copy(), id -> true);
        for (SparseTable t : new SparseTable[] {before, after}) {
            assertThat(t.push(4, new long[] {6}, new float[DIM], UpdateKind.GRADIENT)).isEqualTo(1); // third push of 6
            assertThat(t.push(5, new long[] {7}, new float[DIM], UpdateKind.GRADIENT)).isZero(); // second push of 7
            for (long step = 6; step <= 14; step++) {
                t.push(step, new long[] {6}, new float[DIM], UpdateKind.GRADIENT);
            }
            assertThat(t.ids(null, 10).ids()).containsExactly(6); // 5, last touched at 3, evicted at the same step
        }
    }
}
