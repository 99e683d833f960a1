package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.sparse.UpdateKind;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** GEO rounds of a table: each row pulled once per round, trained locally, pushed as its change over the workers. */
class GeoTableRowsTest {

    /** The servers' rows as a map: row {@code id} starts at {@code {id, -id}}; deltas are added. */
    private static final class RowMap extends SparseClient {
        final Map<Long, float[]> rows = new HashMap<>();
        final List<long[]> pulls = new ArrayList<>();
        final List<Object[]> pushes = new ArrayList<>();

        RowMap() {
            super(null, 0, java.time.Duration.ofSeconds(1), 1 << 20);
        }

        @Override
        public void pull(String table, int dim, long[] ids, float[] out) {
            pulls.add(ids.clone());
            for (int i = 0; i < ids.length; i++) {
                long id = ids[i];
                System.arraycopy(rows.computeIfAbsent(id, k -> new float[] {k, -k}), 0, out, i * dim, dim);
            }
        }

        @Override
        public void push(String table, int dim, long step, UpdateKind kind, long[] ids, float[] values) {
            pushes.add(new Object[] {table, step, kind, ids.clone(), values.clone()});
        }
    }

    private static SameDiffGraph graph() {
        SameDiff sd = SameDiff.create();
        SDVariable user = sd.placeHolder("user", DataType.INT64, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable users = sd.var("users", Nd4j.zeros(DataType.FLOAT, 10, 2));
        SDVariable scale = sd.var("scale", Nd4j.ones(DataType.FLOAT, 1, 1));
        SDVariable prediction = sd.gather(users, user, 0).sum(true, 1).mul(scale).rename("prediction");
        prediction.sub(label).mul(prediction.sub(label)).mean().rename("loss");
        return SameDiffGraph.withTables(sd, new GraphNames("input", "label", "loss", "prediction"), "g",
                EmbeddingTable.of("users"));
    }

    private static TableRows batch(GraphTables tables, long... ids) {
        return TableRows.of(tables, Map.of("user", Nd4j.createFromArray(ids)));
    }

    /** @return a pass whose gradient for every position of the lookup is {@code g} per element */
    private static StepResult gradient(GraphTables tables, int positions, float g) {
        INDArray rows = Nd4j.valueArrayOf(new long[] {positions, 2}, g, DataType.FLOAT);
        return new StepResult(0.5, Map.of(tables.lookups().get(0).output(), rows));
    }

    @Test
    void aRowIsPulledOncePerRoundTrainedLocallyAndPushedAsItsChangeOverTheWorkers() {
        GraphTables tables = graph().tables();
        RowMap servers = new RowMap();
        GeoTableRows geo = new GeoTableRows(tables, 0.5, 2);

        TableRows first = batch(tables, 1, 2, 1);
        geo.fill(first, servers);
        assertThat(first.lookupRows().get(tables.lookups().get(0).output()).toFloatMatrix())
                .isEqualTo(new float[][] {{1, -1}, {2, -2}, {1, -1}});
        geo.trainLocally(first, 0, gradient(tables, 3, 1f)); // id 1 read twice: its gradient is 2, id 2's is 1

        TableRows second = batch(tables, 2, 3);
        geo.fill(second, servers);
        assertThat(servers.pulls).extracting(Arrays::toString).containsExactly("[1, 2]", "[3]");
        assertThat(second.lookupRows().get(tables.lookups().get(0).output()).toFloatMatrix())
                .as("id 2 as this round trained it, id 3 as pulled").isEqualTo(new float[][] {{1.5f, -2.5f}, {3, -3}});
        geo.trainLocally(second, 1, gradient(tables, 2, -2f));
        assertThat(geo.heldRows()).isEqualTo(3);

        geo.pushDeltas(servers, 4);
        assertThat(servers.pushes).hasSize(1);
        Object[] push = servers.pushes.get(0);
        assertThat(push[1]).isEqualTo(4L);
        assertThat(push[2]).isEqualTo(UpdateKind.DELTA);
        assertThat((long[]) push[3]).containsExactly(1, 2, 3);
        // id 1: -0.5 * 2 = -1; id 2: -0.5 + 1 = 0.5; id 3: +1; each over 2 workers
        assertThat((float[]) push[4]).containsExactly(-0.5f, -0.5f, 0.25f, 0.25f, 0.5f, 0.5f);
        assertThat(geo.heldRows()).isZero();

        geo.fill(batch(tables, 1), servers);
        assertThat(servers.pulls).as("a new round pulls again").hasSize(3);
    }

    @Test
    void forgettingDropsTheRoundsRowsUnpushed() {
        GraphTables tables = graph().tables();
        RowMap servers = new RowMap();
        GeoTableRows geo = new GeoTableRows(tables, 0.5, 1);
        TableRows rows = batch(tables, 4);
        geo.fill(rows, servers);
        geo.trainLocally(rows, 0, gradient(tables, 1, 1f));
        geo.forget();
        geo.pushDeltas(servers, 0);
        assertThat(servers.pushes).isEmpty();
    }
}
