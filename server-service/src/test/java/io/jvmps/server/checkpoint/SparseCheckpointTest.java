package io.jvmps.server.checkpoint;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.RowPlacement;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.MemoryBudget;
import io.jvmps.server.sparse.SparseRows;
import io.jvmps.server.sparse.SparseTable;
import io.jvmps.server.sparse.SparseTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sparse tables in checkpoints: rows trained by lazy Adam on 2 servers are written into the parts, read
 * back, joined, and restored onto 3 servers by id placement; every row then reads as before and a further
 * push changes it exactly as it changes the original (values, both moments and the row's update count came
 * back). A rollback puts a table back to its copy and gives its memory back.
 */
class SparseCheckpointTest {
    private static final OptimizerSettings SETTINGS = new OptimizerSettings(0.05, 0.9, false, 0.9, 0.999, 1e-8);
    private static final SparseTableSpec SPEC = new SparseTableSpec("ctr.deep", 4, 11, 0.1f, "ADAM");
    private static final long[] IDS = LongStream.range(0, 300).map(i -> i * 7919 + 3).toArray();

    private static SparseTables tables() {
        return new SparseTables(OptimizerType.SGD, type -> type.create(SETTINGS), new MemoryBudget(1L << 30));
    }

    private static LongPredicate ownedBy(int rank, int servers) {
        return id -> RowPlacement.serverOf(id, servers) == rank;
    }

    @Test
    void tablesTrainedOnTwoServersComeBackOnThreeWithTheirOptimizerState() throws Exception {
        SparseTables[] two = {tables(), tables()};
        for (int r = 0; r < 2; r++) {
            two[r].declare(SPEC, ownedBy(r, 2));
        }
        Random random = new Random(3);
        for (int step = 0; step < 5; step++) {
            pushEverywhere(two, 2, random);
        }
        List<CheckpointPart> parts = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            parts.add(roundTrip(new CheckpointPart(40, r, 2, "ADAM", 2, List.of(), List.of(), List.of(),
                    two[r].copyAll())));
        }
        CheckpointImage image = new Checkpoint(40, Path.of("unused"), parts).image();
        assertThat(image.sparse()).singleElement().satisfies(t -> assertThat(t.rows()).isEqualTo(IDS.length));

        SparseTables[] three = {tables(), tables(), tables()};
        for (int r = 0; r < 3; r++) {
            three[r].restoreWhenDeclared(image.sparse());
            three[r].declare(SPEC, ownedBy(r, 3));
        }
        assertThat(pullEverywhere(three, 3)).containsExactly(pullEverywhere(two, 2));
        long seed = random.nextLong();
        pushEverywhere(two, 2, new Random(seed));
        pushEverywhere(three, 3, new Random(seed));
        assertThat(pullEverywhere(three, 3)).as("one more Adam step from the restored state")
                .containsExactly(pullEverywhere(two, 2));
    }

    @Test
    void aRestartedServerReadsOnlyTheRowsItOwnsFromTheFiles(@TempDir Path dir) throws Exception {
        SparseTables[] two = {tables(), tables()};
        for (int r = 0; r < 2; r++) {
            two[r].declare(SPEC, ownedBy(r, 2));
        }
        pushEverywhere(two, 2, new Random(8));
        CheckpointStore files = new CheckpointStore(dir, java.time.Clock.systemUTC());
        for (int r = 0; r < 2; r++) {
            files.write(new CheckpointPart(30, r, 2, "ADAM", 2, List.of(), List.of(), List.of(), two[r].copyAll()));
        }
        Checkpoint declarations = files.latestComplete(CheckpointStore.NO_ROWS).orElseThrow();
        assertThat(declarations.image().sparse()).singleElement()
                .satisfies(t -> assertThat(t.rows()).as("start-up holds no rows").isZero());

        SparseTables[] three = {tables(), tables(), tables()};
        int held = 0;
        for (int r = 0; r < 3; r++) {
            List<Integer> read = new ArrayList<>();
            three[r].restoreWhenDeclared(declarations.image().sparse(), owned -> {
                try {
                    List<SparseRows> rows = files.load(30, owned).image().sparse();
                    read.add(rows.get(0).rows());
                    return rows;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            three[r].declare(SPEC, ownedBy(r, 3));
            long owned = java.util.Arrays.stream(IDS).filter(ownedBy(r, 3)::test).count();
            assertThat(read).as("server %d read its own rows, once", r).containsExactly((int) owned);
            held += read.get(0);
        }
        assertThat(held).isEqualTo(IDS.length);
        assertThat(pullEverywhere(three, 3)).containsExactly(pullEverywhere(two, 2));
    }

    @Test
    void aRollbackPutsTheRowsBackAndGivesTheirMemoryBack() {
        SparseTables tables = tables();
        SparseTable table = tables.declare(SPEC);
        Random random = new Random(5);
        table.push(new long[] {1, 2, 3}, gradients(3, random), UpdateKind.GRADIENT);
        List<SparseRows> saved = tables.copyAll();
        long bytes = tables.budget().used();
        float[] before = pull(table, 1, 2, 3);
        table.push(IDS, gradients(IDS.length, random), UpdateKind.GRADIENT);
        assertThat(tables.budget().used()).isGreaterThanOrEqualTo(bytes);
        assertThat(pull(table, 1, 2, 3)).isNotEqualTo(before);

        tables.restore(saved, id -> true);

        assertThat(pull(table, 1, 2, 3)).containsExactly(before);
        assertThat(table.rows()).isEqualTo(3);
        assertThat(tables.budget().used()).isEqualTo(bytes);
        tables.restore(List.of(), id -> true);
        assertThat(table.rows()).as("a table the checkpoint does not have is emptied").isZero();
        assertThat(tables.budget().used()).isZero();
    }

    @Test
    void aDeclarationThatDiffersFromTheCheckpointIsRefusedAndCreatesNothing() {
        SparseTables source = tables();
        source.declare(SPEC).push(new long[] {9}, gradients(1, new Random(1)), UpdateKind.GRADIENT);
        SparseTables restarted = tables();
        restarted.restoreWhenDeclared(source.copyAll());
        SparseTableSpec other = new SparseTableSpec(SPEC.name(), 8, SPEC.seed(), SPEC.initScale(), "ADAM");
        assertThatThrownBy(() -> restarted.declare(other)).isInstanceOfSatisfying(PsException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThat(restarted.all()).isEmpty();
        assertThat(restarted.declare(SPEC).rows()).isEqualTo(1);
    }

    @Test
    void aTableWithALifecycleComesBackWithItsAdmissionCountsClocksAndSettings() throws Exception {
        SparseTableSpec spec = SPEC.withLifecycle(new io.jvmps.common.sparse.RowLifecycle(2, 50));
        SparseTables tables = tables();
        SparseTable table = tables.declare(spec);
        table.push(7, new long[] {1, 2}, gradients(2, new Random(3)), UpdateKind.GRADIENT); // seen once
        table.push(9, new long[] {1}, gradients(1, new Random(4)), UpdateKind.GRADIENT); // 1 admitted at clock 9
        CheckpointPart read = roundTrip(new CheckpointPart(10, 0, 1, "SGD", 0, List.of(), List.of(), List.of(),
                tables.copyAll()));
        io.jvmps.server.sparse.SparseRows rows = read.sparse().get(0);
        assertThat(rows.spec()).isEqualTo(spec);
        assertThat(rows.ids()).containsExactly(1);
        assertThat(rows.touched()).containsExactly(9);
        assertThat(rows.admission().counters()).isEqualTo(table.copy().admission().counters());
        SparseTables restarted = tables();
        restarted.restoreWhenDeclared(read.sparse());
        SparseTable back = restarted.declare(spec);
        assertThat(back.push(10, new long[] {2}, gradients(1, new Random(5)), UpdateKind.GRADIENT))
                .isEqualTo(1); // 2's second push: admitted, as it would have been without the restart
        assertThat(back.ids(null, 10).ids()).containsExactly(1, 2);
    }

    @Test
    void aRowwiseAdagradTableComesBackWithItsOneAccumulatorPerRow() throws Exception {
        SparseTableSpec spec = new SparseTableSpec("rowwise", 4, 3, 0.1f, "ROWWISE_ADAGRAD");
        SparseTables tables = tables();
        tables.declare(spec).push(new long[] {1, 2, 3}, gradients(3, new Random(8)), UpdateKind.GRADIENT);
        io.jvmps.server.sparse.SparseRows saved = tables.copyAll().get(0);
        CheckpointPart read = roundTrip(new CheckpointPart(10, 0, 1, "SGD", 0, List.of(), List.of(), List.of(),
                tables.copyAll()));
        io.jvmps.server.sparse.SparseRows rows = read.sparse().get(0);
        assertThat(rows.stateFloats()).isEqualTo(1);
        assertThat(rows.data()).containsExactly(saved.data());
        SparseTables restarted = tables();
        restarted.restoreWhenDeclared(read.sparse());
        assertThat(restarted.declare(spec).copy().data()).containsExactly(saved.data());
    }

    @Test
    void aDamagedSparseSectionFailsWithAMessage() throws Exception {
        SparseTables tables = tables();
        tables.declare(SPEC).push(new long[] {1, 2}, gradients(2, new Random(2)), UpdateKind.GRADIENT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CheckpointFormat.write(new CheckpointPart(10, 0, 1, "SGD", 0, List.of(), List.of(), List.of(),
                tables.copyAll()), new DataOutputStream(bytes));
        byte[] cut = java.util.Arrays.copyOf(bytes.toByteArray(), bytes.size() - 20);
        assertThatThrownBy(() -> CheckpointFormat.read(new DataInputStream(new ByteArrayInputStream(cut))))
                .isInstanceOf(java.io.IOException.class);
    }

    private static CheckpointPart roundTrip(CheckpointPart part) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CheckpointFormat.write(part, new DataOutputStream(bytes));
        return CheckpointFormat.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    private static void pushEverywhere(SparseTables[] servers, int count, Random random) {
        float[] all = gradients(IDS.length, random);
        for (int r = 0; r < count; r++) {
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < IDS.length; i++) {
                if (RowPlacement.serverOf(IDS[i], count) == r) {
                    mine.add(i);
                }
            }
            long[] ids = mine.stream().mapToLong(i -> IDS[i]).toArray();
            float[] values = new float[ids.length * SPEC.dim()];
            for (int k = 0; k < mine.size(); k++) {
                System.arraycopy(all, mine.get(k) * SPEC.dim(), values, k * SPEC.dim(), SPEC.dim());
            }
            servers[r].require(SPEC.name()).push(ids, values, UpdateKind.GRADIENT);
        }
    }

    private static float[] pullEverywhere(SparseTables[] servers, int count) {
        float[] out = new float[IDS.length * SPEC.dim()];
        for (int i = 0; i < IDS.length; i++) {
            float[] row = pull(servers[RowPlacement.serverOf(IDS[i], count)].require(SPEC.name()), IDS[i]);
            System.arraycopy(row, 0, out, i * SPEC.dim(), SPEC.dim());
        }
        return out;
    }

    private static float[] pull(SparseTable table, long... ids) {
        float[] out = new float[ids.length * table.spec().dim()];
        table.pull(ids, out);
        return out;
    }

    private static float[] gradients(int rows, Random random) {
        float[] g = new float[rows * SPEC.dim()];
        for (int i = 0; i < g.length; i++) {
            g[i] = (float) random.nextGaussian();
        }
        return g;
    }
}
