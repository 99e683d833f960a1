package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.DistinctIds;
import io.jvmps.common.sparse.UpdateKind;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One batch's rows of every table: per table, the ids of all its lookups together deduplicated (each row is
 * pulled once), the rows pulled, spread out to every lookup's positions as that lookup's rows, and after the pass
 * each distinct row's gradient, summed over every position of every lookup that read it, pushed once. Not
 * thread-safe.
 */
final class TableRows {
    private final GraphTables tables;
    /** Per table: its distinct ids and, per position of its lookups in lookup order, the row's index. */
    private final List<DistinctIds> distinct = new ArrayList<>();
    /** Per lookup: its ids' shape, and where its positions start in its table's {@link DistinctIds#indexOf()}. */
    private final List<long[]> shapes = new ArrayList<>();
    private final int[] firstPosition;
    private final List<float[]> rows = new ArrayList<>();

    private TableRows(GraphTables tables) {
        this.tables = tables;
        this.firstPosition = new int[tables.lookups().size()];
    }

    /**
     * @param ids every id placeholder's ids for the batch (any integer type, any shape)
     * @throws PsException INVALID_ARGUMENT for a missing placeholder or an id outside a bounded table
     */
    static TableRows of(GraphTables tables, Map<String, INDArray> ids) {
        TableRows out = new TableRows(tables);
        List<GraphTables.Lookup> lookups = tables.lookups();
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            List<long[]> values = new ArrayList<>();
            int total = 0;
            for (int l = 0; l < lookups.size(); l++) {
                GraphTables.Lookup lookup = lookups.get(l);
                if (lookup.table() != t) {
                    continue;
                }
                INDArray given = ids.get(lookup.ids());
                if (given == null) {
                    throw new PsException(ErrorCode.INVALID_ARGUMENT, "the batch has no ids for placeholder '"
                            + lookup.ids() + "' of table '" + table.variable() + "'; it has " + ids.keySet());
                }
                long[] v = given.dup('c').data().asLong();
                if (!table.table().hashed()) {
                    checkBounded(table, lookup.ids(), v);
                }
                out.firstPosition[l] = total;
                values.add(v);
                total += v.length;
            }
            long[] all = new long[total];
            int at = 0;
            for (long[] v : values) {
                System.arraycopy(v, 0, all, at, v.length);
                at += v.length;
            }
            out.distinct.add(DistinctIds.of(all));
        }
        for (GraphTables.Lookup lookup : lookups) {
            out.shapes.add(ids.get(lookup.ids()).shape());
        }
        return out;
    }

    private static void checkBounded(GraphTables.Table table, String input, long[] ids) {
        for (long id : ids) {
            if (id < 0 || id >= table.vocabulary()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "placeholder '" + input + "' gave id " + id
                        + ", outside table '" + table.variable() + "' of " + table.vocabulary() + " rows [0, "
                        + table.vocabulary() + "); make the variable larger, or declare the table hashed (any "
                        + "64-bit id)");
            }
        }
    }

    /** Pulls every table's distinct rows. */
    void pull(SparseClient client) {
        rows.clear();
        for (int t = 0; t < tables.list().size(); t++) {
            rows.add(pullTable(client, t));
        }
    }

    /** @return table {@code t}'s distinct rows, pulled from the servers in the order of {@link #ids(int)} */
    float[] pullTable(SparseClient client, int t) {
        GraphTables.Table table = tables.list().get(t);
        long[] ids = distinct.get(t).ids();
        float[] out = new float[ids.length * table.dim()];
        client.pull(table.variable(), table.dim(), ids, out);
        return out;
    }

    /**
     * Uses given rows instead of pulling them (a one-process run, or a test).
     *
     * @param tableRows per table, {@code ids(t).length * dim} floats in the order of its distinct ids
     */
    void use(List<float[]> tableRows) {
        rows.clear();
        rows.addAll(tableRows);
    }

    /** @return table {@code t}'s distinct ids, in the order its rows are pulled and pushed */
    long[] ids(int t) {
        return distinct.get(t).ids();
    }

    /** @return each lookup's output and its rows: the ids' shape plus {@code dim}, float32 */
    Map<String, INDArray> lookupRows() {
        Map<String, INDArray> out = new java.util.LinkedHashMap<>();
        List<GraphTables.Lookup> lookups = tables.lookups();
        for (int l = 0; l < lookups.size(); l++) {
            GraphTables.Lookup lookup = lookups.get(l);
            int dim = tables.list().get(lookup.table()).dim();
            int[] indexOf = distinct.get(lookup.table()).indexOf();
            long[] shape = shapes.get(l);
            int n = (int) Arrays.stream(shape).reduce(1, Math::multiplyExact);
            float[] source = rows.get(lookup.table());
            float[] values = new float[n * dim];
            for (int i = 0; i < n; i++) {
                System.arraycopy(source, indexOf[firstPosition[l] + i] * dim, values, i * dim, dim);
            }
            long[] rowShape = Arrays.copyOf(shape, shape.length + 1);
            rowShape[shape.length] = dim;
            out.put(lookup.output(), Nd4j.create(values, rowShape, DataType.FLOAT));
        }
        return out;
    }

    /**
     * @param result the pass's gradients, one per lookup output
     * @return per table, each distinct row's gradient summed over every position that read it
     * @throws PsException INVALID_ARGUMENT for a gradient that is not finite
     */
    List<float[]> rowGradients(long step, StepResult result) {
        List<float[]> out = new ArrayList<>();
        List<GraphTables.Lookup> lookups = tables.lookups();
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            int dim = table.dim();
            float[] positions = new float[distinct.get(t).indexOf().length * dim];
            for (int l = 0; l < lookups.size(); l++) {
                if (lookups.get(l).table() != t) {
                    continue;
                }
                float[] g = result.gradients().get(lookups.get(l).output()).dup('c').data().asFloat();
                System.arraycopy(g, 0, positions, firstPosition[l] * dim, g.length);
            }
            float[] summed = distinct.get(t).sum(positions, dim);
            for (float g : summed) {
                if (!Float.isFinite(g)) {
                    throw new PsException(ErrorCode.INVALID_ARGUMENT, "step " + step + " gave a non-finite gradient "
                            + "for table '" + table.variable() + "': not pushed (check the data and the learning rate)");
                }
            }
            out.add(summed);
        }
        return out;
    }

    /** Pushes each table's distinct rows' summed gradients for {@code step}. */
    void push(SparseClient client, long step, StepResult result) {
        List<float[]> gradients = rowGradients(step, result);
        for (int t = 0; t < tables.list().size(); t++) {
            pushTable(client, step, t, gradients.get(t));
        }
    }

    /** Pushes table {@code t}'s distinct rows' summed gradients (from {@link #rowGradients}) for {@code step}. */
    void pushTable(SparseClient client, long step, int t, float[] gradient) {
        GraphTables.Table table = tables.list().get(t);
        client.push(table.variable(), table.dim(), step, UpdateKind.GRADIENT, distinct.get(t).ids(), gradient);
    }
}
