package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.sparse.UpdateKind;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The servers' rows of one table as a map, for the table steps' unit tests: row {@code id} starts at
 * {@code {id, -id}}; pulls and pushes are recorded (pushes are not applied). Thread-safe for one caller at a time.
 */
final class RowMapClient extends SparseClient {
    final Map<Long, float[]> rows = new HashMap<>();
    final List<long[]> pulls = new CopyOnWriteArrayList<>();
    /** Each push as {table, step, kind, ids, values}. */
    final List<Object[]> pushes = new CopyOnWriteArrayList<>();

    RowMapClient() {
        super(null, 0, java.time.Duration.ofSeconds(1), 1 << 20);
    }

    @Override
    public synchronized void pull(List<Rows> tables) { // the one-table pull comes here too
        for (Rows t : tables) {
            pulls.add(t.ids().clone());
            for (int i = 0; i < t.ids().length; i++) {
                System.arraycopy(rows.computeIfAbsent(t.ids()[i], k -> new float[] {k, -k}), 0, t.values(),
                        i * t.dim(), t.dim());
            }
        }
    }

    @Override
    public void push(long step, UpdateKind kind, List<Rows> tables) {
        for (Rows t : tables) {
            pushes.add(new Object[] {t.table(), step, kind, t.ids().clone(), t.values().clone()});
        }
    }

    /** @return {@code prediction = scale * sum(users[user])} with table {@code users [10, 2]} */
    static SameDiffGraph graph() {
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

    static TableRows batch(GraphTables tables, long... ids) {
        return TableRows.of(tables, Map.of("user", Nd4j.createFromArray(ids)));
    }

    /** @return a pass whose gradient for every position of the lookup is {@code g} per element */
    static StepResult gradient(GraphTables tables, int positions, float g) {
        INDArray rows = Nd4j.valueArrayOf(new long[] {positions, 2}, g, DataType.FLOAT);
        return new StepResult(0.5, Map.of(tables.lookups().get(0).output(), rows));
    }
}
