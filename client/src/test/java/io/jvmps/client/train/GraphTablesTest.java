package io.jvmps.client.train;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GraphTablesTest {
    private static final GraphNames NAMES = new GraphNames("input", "label", "loss", "prediction");

    /**
     * A factorisation read by three gathers: users and items of dim 3, a user bias sharing the user placeholder,
     * and a dense scale: prediction = scale * (users[user] . items[item]) + userBias[user].
     */
    private static SameDiff factorisation() {
        SameDiff sd = SameDiff.create();
        SDVariable user = sd.placeHolder("user", DataType.INT64, -1);
        SDVariable item = sd.placeHolder("item", DataType.INT32, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable users = sd.var("users", Nd4j.rand(DataType.FLOAT, 10, 3));
        SDVariable items = sd.var("items", Nd4j.rand(DataType.FLOAT, 20, 3));
        SDVariable bias = sd.var("userBias", Nd4j.zeros(DataType.FLOAT, 10, 1));
        SDVariable scale = sd.var("scale", Nd4j.valueArrayOf(new long[] {1, 1}, 1.5f));
        SDVariable prediction = sd.gather(users, user, 0).mul(sd.gather(items, item, 0)).sum(true, 1).mul(scale)
                .add(sd.gather(bias, user, 0)).rename("prediction");
        SDVariable error = prediction.sub(label);
        error.mul(error).mean().rename("loss");
        return sd;
    }

    private static SameDiffGraph graph(boolean hashedItems) {
        EmbeddingTable items = EmbeddingTable.of("items");
        return SameDiffGraph.withTables(factorisation(), NAMES, "mf", EmbeddingTable.of("users"),
                hashedItems ? items.asHashed() : items, EmbeddingTable.of("userBias"));
    }

    @Test
    void tablesAreLeftOutOfTheDenseParametersAndEveryGatherIsALookup() {
        SameDiffGraph g = graph(false);
        assertThat(g.params()).extracting(p -> p.name()).containsExactly("scale");
        assertThat(g.tables().variables()).containsExactly("users", "items", "userBias");
        assertThat(g.tables().list().get(1).dim()).isEqualTo(3);
        assertThat(g.tables().list().get(1).vocabulary()).isEqualTo(20);
        assertThat(g.tables().lookups()).hasSize(3);
        assertThat(g.tables().idInputs()).containsEntry("user", List.of("users", "userBias"))
                .containsEntry("item", List.of("items"));
        assertThat(g.inputSize()).isZero();
    }

    @Test
    void eachTablesRowsArePulledOnceAndSpreadToEveryPositionThatReadsThem() {
        SameDiffGraph g = graph(false);
        TableRows rows = TableRows.of(g.tables(), Map.of("user", Nd4j.createFromArray(7L, 2L, 7L, 9L),
                "item", Nd4j.createFromArray(19, 19, 0, 3)));
        assertThat(rows.ids(0)).containsExactly(7, 2, 9);
        assertThat(rows.ids(1)).containsExactly(19, 0, 3);
        assertThat(rows.ids(2)).containsExactly(7, 2, 9);
        rows.use(List.of(new float[] {7, 7, 7, 2, 2, 2, 9, 9, 9}, new float[] {19, 19, 19, 0, 0, 0, 3, 3, 3},
                new float[] {70, 20, 90}));
        Map<String, INDArray> lookups = rows.lookupRows();
        INDArray userRows = lookups.get(g.tables().lookups().get(0).output());
        assertThat(userRows.shape()).containsExactly(4, 3);
        assertThat(userRows.getColumn(0).toFloatVector()).containsExactly(7, 2, 7, 9);
        assertThat(lookups.get(g.tables().lookups().get(2).output()).toFloatVector()).containsExactly(70, 20, 70, 90);
    }

    @Test
    void eachDistinctRowGetsTheLossGradientSummedOverItsPositions() {
        SameDiffGraph g = graph(false);
        Map<String, INDArray> ids = Map.of("user", Nd4j.createFromArray(1L, 4L, 1L), "item",
                Nd4j.createFromArray(5, 5, 6));
        INDArray labels = Nd4j.createFromArray(new float[][] {{1f}, {-0.5f}, {2f}});
        java.util.Random random = new java.util.Random(3);
        List<float[]> values = new ArrayList<>();
        for (int dim : new int[] {3, 3, 1}) {
            float[] v = new float[2 * dim];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) random.nextGaussian();
            }
            values.add(v);
        }
        TableRows rows = TableRows.of(g.tables(), ids);
        rows.use(values);
        List<float[]> gradients = rows.rowGradients(0, g.gradients(null, labels, rows.lookupRows(), ids));
        double eps = 1e-2;
        for (int t = 0; t < 3; t++) {
            for (int e = 0; e < values.get(t).length; e++) {
                double[] losses = new double[2];
                for (int side = 0; side < 2; side++) {
                    List<float[]> moved = new ArrayList<>();
                    values.forEach(v -> moved.add(v.clone()));
                    moved.get(t)[e] += side == 0 ? eps : -eps;
                    rows.use(moved);
                    losses[side] = g.gradients(null, labels, rows.lookupRows(), ids).loss();
                }
                assertThat(gradients.get(t)[e]).as("table %d element %d", t, e)
                        .isCloseTo((float) ((losses[0] - losses[1]) / (2 * eps)), within(2e-2f));
            }
        }
    }

    @Test
    void aMultiValuedFieldIsLookedUpPerValueAndItsMaskedMeanDifferentiatesToEachRow() {
        SameDiff sd = SameDiff.create();
        SDVariable genres = sd.placeHolder("genres", DataType.INT64, -1, 3);
        SDVariable mask = sd.placeHolder("genres_mask", DataType.FLOAT, -1, 3);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable table = sd.var("genreTable", Nd4j.zeros(DataType.FLOAT, 8, 2));
        SDVariable w = sd.var("w", Nd4j.createFromArray(new float[][] {{0.5f}, {-1.5f}}));
        SDVariable rows = sd.gather(table, genres, 0);                                   // [n, 3, 2]
        SDVariable pooled = rows.mul(sd.expandDims(mask, 2)).sum(1).div(mask.sum(true, 1).add(1e-6)); // [n, 2]
        SDVariable error = pooled.mmul(w).rename("prediction").sub(label);
        error.mul(error).mean().rename("loss");
        SameDiffGraph g = SameDiffGraph.withTables(sd, NAMES, "genres", EmbeddingTable.of("genreTable"));

        Map<String, INDArray> inputs = Map.of("genres", Nd4j.createFromArray(new long[][] {{3, 5, 0}, {5, 0, 0}}),
                "genres_mask", Nd4j.createFromArray(new float[][] {{1, 1, 0}, {1, 0, 0}}));
        INDArray labels = Nd4j.createFromArray(new float[][] {{1f}, {-2f}});
        TableRows lookup = TableRows.of(g.tables(), inputs);
        // the padding (id 0 where the mask is 0) is neither pulled nor pushed: it creates and trains no row
        assertThat(lookup.ids(0)).containsExactly(3, 5);
        float[] values = {0.3f, -0.2f, 1.1f, 0.4f};
        lookup.use(List.of(values));
        INDArray read = lookup.lookupRows().values().iterator().next();
        assertThat(read.shape()).containsExactly(2, 3, 2);
        assertThat(read.dup().data().asFloat()).as("padding reads zeros")
                .containsExactly(0.3f, -0.2f, 1.1f, 0.4f, 0f, 0f, 1.1f, 0.4f, 0f, 0f, 0f, 0f);
        float[] gradient = lookup.rowGradients(0, g.gradients(null, labels, lookup.lookupRows(), inputs)).get(0);
        assertThat(gradient).hasSize(4);
        double eps = 1e-2;
        for (int e = 0; e < 4; e++) {
            float[] up = values.clone();
            float[] down = values.clone();
            up[e] += (float) eps;
            down[e] -= (float) eps;
            lookup.use(List.of(up));
            double lossUp = g.gradients(null, labels, lookup.lookupRows(), inputs).loss();
            lookup.use(List.of(down));
            double lossDown = g.gradients(null, labels, lookup.lookupRows(), inputs).loss();
            assertThat(gradient[e]).as("element %d", e).isCloseTo((float) ((lossUp - lossDown) / (2 * eps)),
                    within(2e-2f));
        }
    }

    @Test
    void anIdOutsideABoundedTableIsRefusedNamingItButAHashedTableTakesAnyId() {
        Map<String, INDArray> ids = Map.of("user", Nd4j.createFromArray(1L), "item", Nd4j.createFromArray(20));
        assertThatThrownBy(() -> TableRows.of(graph(false).tables(), ids)).isInstanceOf(PsException.class)
                .hasMessageContaining("placeholder 'item' gave id 20, outside table 'items' of 20 rows");
        Map<String, INDArray> big = Map.of("user", Nd4j.createFromArray(1L), "item",
                Nd4j.createFromArray(Long.MAX_VALUE));
        assertThat(TableRows.of(graph(true).tables(), big).ids(1)).containsExactly(Long.MAX_VALUE);
        assertThatThrownBy(() -> TableRows.of(graph(false).tables(), Map.of("user", Nd4j.createFromArray(1L))))
                .hasMessageContaining("no ids for placeholder 'item'");
    }

    @Test
    void badDeclarationsAreRefusedNamingWhatIsWrong() {
        assertThatThrownBy(() -> SameDiffGraph.withTables(factorisation(), NAMES, "mf", EmbeddingTable.of("nope")))
                .hasMessageContaining("embedding table 'nope' must be a FLOAT variable [vocabulary, dim]");
        assertThatThrownBy(() -> SameDiffGraph.withTables(factorisation(), NAMES, "mf", EmbeddingTable.of("scale")))
                .hasMessageContaining("table 'scale' is read by multiply op");
        assertThatThrownBy(() -> SameDiffGraph.withTables(factorisation(), NAMES, "mf", EmbeddingTable.of("users"),
                EmbeddingTable.of("items").withInitRows(21), EmbeddingTable.of("userBias")))
                .hasMessageContaining("table 'items' asks the servers to create 21 rows up front, beyond its "
                        + "vocabulary of 20");
        SameDiff constantIds = SameDiff.create();
        constantIds.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable t = constantIds.var("t", Nd4j.rand(DataType.FLOAT, 4, 2));
        SDVariable w = constantIds.var("w", Nd4j.ones(DataType.FLOAT, 1, 1));
        constantIds.gather(t, constantIds.constant(Nd4j.createFromArray(1, 2)), 0).sum(true, 1).mul(w)
                .rename("prediction").mean().rename("loss");
        assertThatThrownBy(() -> SameDiffGraph.withTables(constantIds, NAMES, "c", EmbeddingTable.of("t")))
                .hasMessageContaining("the ids must be an integer (INT32 or INT64) placeholder");
        assertThatThrownBy(() -> EmbeddingTable.of("bad name")).hasMessageContaining("sparse table name");
        assertThatThrownBy(() -> graph(false).predict(Nd4j.zeros(DataType.FLOAT, 1, 1)))
                .hasMessageContaining("has embedding tables: predict through the trainer");
    }

    @Test
    void theGraphItselfKeepsItsGathersForTheExport() {
        SameDiffGraph g = graph(false);
        assertThat(g.sameDiff().getOps().values().stream()
                .filter(op -> op.getOp() instanceof org.nd4j.linalg.api.ops.impl.shape.Gather)).hasSize(3);
        g.setParam("scale", Nd4j.valueArrayOf(new long[] {1, 1}, 2f));
        assertThat(g.sameDiff().getVariable("scale").getArr().getFloat(0)).isEqualTo(2f);
        assertThat(g.param("scale").getFloat(0)).isEqualTo(2f);
    }

    @Test
    void theInitialRowsAreTheServersOwnFunctionOfSeedAndId() {
        EmbeddingTable table = EmbeddingTable.of("t").withInit(0.5f, 42);
        float[] expected = new float[4];
        io.jvmps.common.sparse.RowInitializer.fill(42, 3, 0.5f, expected, 0, 4);
        assertThat(table.initialRows(5, 4).getRow(3).toFloatVector()).containsExactly(expected);
        assertThat(table.initialRows(5, 4).amaxNumber().doubleValue()).isLessThanOrEqualTo(0.5);
    }

    @Test
    void labeledDataCarriesItsIdsThroughGatherAndRows() {
        LabeledData data = new LabeledData(Nd4j.create(DataType.FLOAT, 3, 0), Nd4j.createFromArray(
                new float[][] {{1f}, {2f}, {3f}}), Map.of("user", Nd4j.createFromArray(5L, 6L, 7L),
                "genres", Nd4j.createFromArray(new long[][] {{1, 2}, {3, 4}, {5, 6}})));
        LabeledData picked = data.gather(new int[] {2, 0});
        assertThat(picked.ids().get("user").toLongVector()).containsExactly(7, 5);
        assertThat(picked.ids().get("genres").toLongMatrix()).isEqualTo(new long[][] {{5, 6}, {1, 2}});
        assertThat(picked.labels().toFloatVector()).containsExactly(3f, 1f);
        assertThat(data.rows(1, 2).ids().get("user").toLongVector()).containsExactly(6);
        assertThatThrownBy(() -> new LabeledData(Nd4j.create(DataType.FLOAT, 3, 0), Nd4j.zeros(DataType.FLOAT, 3, 1),
                Map.of("user", Nd4j.createFromArray(1L)))).hasMessageContaining("need 3 rows");
    }
}
