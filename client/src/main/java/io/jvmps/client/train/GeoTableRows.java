package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.sparse.UpdateKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables' side of GEO-SGD for {@link SameDiffTrainer} (Paddle's geo sparse tables): within a round, a row is
 * pulled from the servers the first time a batch reads it and from then on read and trained locally with plain SGD
 * at the GEO learning rate; at the round's end each touched row's change since its pull, divided by the workers, is
 * pushed as a delta ({@link UpdateKind#DELTA}: the servers add it) and the local rows are dropped, so the next round
 * reads the servers' sum of every worker's changes. Memory: the rows a round touched, twice (value and base). Not
 * thread-safe: the training thread's.
 */
final class GeoTableRows implements TableStep {
    private final GraphTables tables;
    private final double learningRate;
    private final int workers;
    /** Per table: id to {value, base} of each row this round touched. */
    private final List<Map<Long, float[][]>> touched = new ArrayList<>();

    /**
     * @param learningRate the local SGD rate ({@code ps.consistency.geo-learning-rate})
     * @param workers      the job's workers, each of whose deltas is divided by their number
     */
    GeoTableRows(GraphTables tables, double learningRate, int workers) {
        this.tables = tables;
        this.learningRate = learningRate;
        this.workers = workers;
        for (int t = 0; t < tables.list().size(); t++) {
            touched.add(new HashMap<>());
        }
    }

    /** Gives the batch its rows: the round's local ones, and those not yet read this round pulled once. */
    @Override
    public void fill(TableRows rows, SparseClient client) {
        List<float[]> values = new ArrayList<>();
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            int dim = table.dim();
            Map<Long, float[][]> local = touched.get(t);
            long[] ids = rows.ids(t);
            long[] missing = Arrays.stream(ids).filter(id -> !local.containsKey(id)).toArray();
            if (missing.length > 0) {
                float[] pulled = new float[missing.length * dim];
                client.pull(table.variable(), dim, missing, pulled);
                for (int i = 0; i < missing.length; i++) {
                    float[] base = Arrays.copyOfRange(pulled, i * dim, (i + 1) * dim);
                    local.put(missing[i], new float[][] {base.clone(), base});
                }
            }
            float[] out = new float[ids.length * dim];
            for (int i = 0; i < ids.length; i++) {
                System.arraycopy(local.get(ids[i])[0], 0, out, i * dim, dim);
            }
            values.add(out);
        }
        rows.use(values);
    }

    /** One local SGD step on the batch's rows (pushed when the round ends). */
    @Override
    public void update(TableRows rows, SparseClient client, long step, StepResult result, boolean last) {
        List<float[]> gradients = rows.rowGradients(step, result);
        for (int t = 0; t < tables.list().size(); t++) {
            int dim = tables.list().get(t).dim();
            long[] ids = rows.ids(t);
            float[] g = gradients.get(t);
            for (int i = 0; i < ids.length; i++) {
                float[] value = touched.get(t).get(ids[i])[0];
                for (int k = 0; k < dim; k++) {
                    value[k] -= (float) (learningRate * g[i * dim + k]);
                }
            }
        }
    }

    /** Pushes each touched row's change since its pull, divided by the workers, and starts the next round. */
    @Override
    public void roundEnded(SparseClient client, long round) {
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            int dim = table.dim();
            Map<Long, float[][]> local = touched.get(t);
            long[] ids = local.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
            if (ids.length == 0) {
                continue;
            }
            float[] deltas = new float[ids.length * dim];
            for (int i = 0; i < ids.length; i++) {
                float[][] row = local.get(ids[i]);
                for (int k = 0; k < dim; k++) {
                    deltas[i * dim + k] = (row[0][k] - row[1][k]) / workers;
                }
            }
            client.push(table.variable(), dim, round, UpdateKind.DELTA, ids, deltas);
        }
        touched.forEach(Map::clear);
    }

    /** Drops the round's rows unpushed: the servers rolled back to a checkpoint. */
    @Override
    public void recovered(SparseClient client) {
        touched.forEach(Map::clear);
    }

    /** @return the rows this round touched, over every table */
    int heldRows() {
        return touched.stream().mapToInt(Map::size).sum();
    }
}
