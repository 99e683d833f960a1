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
 * each distinct row's gradient, summed over every position of every lookup that read it, pushed once. A lookup
 * whose ids come with a mask ({@code <ids>_mask}, 0 at the padding after a row's last value, as
 * {@link io.jvmps.client.dataset.LibSvmIds} and a CSV multi-valued column give) reads zeros at the padding: those
 * positions' ids are neither pulled nor pushed, so padding creates and trains no row. Not thread-safe.
 */
final class TableRows {
    private final GraphTables tables;
    /** Per table: its distinct ids (of the positions that are no padding). */
    private final List<DistinctIds> distinct = new ArrayList<>();
    /** Per table, per position of its lookups in lookup order: the index of its row among the distinct ids, or -1
     * for padding. */
    private final List<int[]> rowOf = new ArrayList<>();
    /** Per lookup: its ids' shape, and where its positions start in its table's {@link #rowOf}. */
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
            List<boolean[]> pads = new ArrayList<>();
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
                INDArray mask = ids.get(lookup.ids() + "_mask");
                boolean[] pad = padding(mask, v.length, lookup.ids());
                if (!table.table().hashed()) {
                    checkBounded(table, lookup.ids(), v, pad);
                }
                out.firstPosition[l] = total;
                values.add(v);
                pads.add(pad);
                total += v.length;
            }
            long[] all = new long[total];
            int[] slot = new int[total];
            int used = 0;
            int at = 0;
            for (int k = 0; k < values.size(); k++) {
                long[] v = values.get(k);
                boolean[] pad = pads.get(k);
                for (int i = 0; i < v.length; i++, at++) {
                    if (pad != null && pad[i]) {
                        slot[at] = -1;
                    } else {
                        slot[at] = used;
                        all[used++] = v[i];
                    }
                }
            }
            DistinctIds d = DistinctIds.of(used == total ? all : Arrays.copyOf(all, used));
            int[] rows = new int[total];
            for (int i = 0; i < total; i++) {
                rows[i] = slot[i] < 0 ? -1 : d.indexOf()[slot[i]];
            }
            out.distinct.add(d);
            out.rowOf.add(rows);
            pads.clear();
        }
        for (GraphTables.Lookup lookup : lookups) {
            out.shapes.add(ids.get(lookup.ids()).shape());
        }
        return out;
    }

    /** @return per position whether it is padding (mask 0), or null without a mask */
    private static boolean[] padding(INDArray mask, int positions, String input) {
        if (mask == null) {
            return null;
        }
        float[] m = mask.dup('c').data().asFloat();
        if (m.length != positions) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "'" + input + "_mask' has " + m.length + " values for "
                    + positions + " ids of '" + input + "': a mask has one value per id");
        }
        boolean[] pad = new boolean[positions];
        for (int i = 0; i < positions; i++) {
            pad[i] = m[i] == 0f;
        }
        return pad;
    }

    private static void checkBounded(GraphTables.Table table, String input, long[] ids, boolean[] pad) {
        for (int i = 0; i < ids.length; i++) {
            long id = ids[i];
            if ((pad == null || !pad[i]) && (id < 0 || id >= table.vocabulary())) {
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
        List<SparseClient.Rows> calls = new java.util.ArrayList<>();
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            long[] ids = distinct.get(t).ids();
            float[] out = new float[ids.length * table.dim()];
            rows.add(out);
            if (ids.length > 0) {
                calls.add(new SparseClient.Rows(table.variable(), table.dim(), ids, out));
            }
        }
        if (!calls.isEmpty()) {
            client.pull(calls); // every table's requests at once: one round trip per step, not one per table
        }
    }

    /** @return table {@code t}'s distinct rows, pulled from the servers in the order of {@link #ids(int)} */
    float[] pullTable(SparseClient client, int t) {
        GraphTables.Table table = tables.list().get(t);
        long[] ids = distinct.get(t).ids();
        float[] out = new float[ids.length * table.dim()];
        if (ids.length > 0) {
            client.pull(table.variable(), table.dim(), ids, out);
        }
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
            int[] indexOf = rowOf.get(lookup.table());
            long[] shape = shapes.get(l);
            int n = (int) Arrays.stream(shape).reduce(1, Math::multiplyExact);
            float[] source = rows.get(lookup.table());
            float[] values = new float[n * dim];
            for (int i = 0; i < n; i++) {
                int row = indexOf[firstPosition[l] + i];
                if (row >= 0) { // padding reads zeros
                    System.arraycopy(source, row * dim, values, i * dim, dim);
                }
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
            int[] indexOf = rowOf.get(t);
            float[] summed = new float[distinct.get(t).ids().length * dim];
            for (int l = 0; l < lookups.size(); l++) {
                if (lookups.get(l).table() != t) {
                    continue;
                }
                float[] g = result.gradients().get(lookups.get(l).output()).dup('c').data().asFloat();
                int first = firstPosition[l];
                for (int i = 0; i < g.length / dim; i++) {
                    int row = indexOf[first + i];
                    if (row >= 0) {
                        for (int k = 0; k < dim; k++) {
                            summed[row * dim + k] += g[i * dim + k];
                        }
                    }
                }
            }
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
        List<SparseClient.Rows> calls = new java.util.ArrayList<>();
        for (int t = 0; t < tables.list().size(); t++) {
            GraphTables.Table table = tables.list().get(t);
            long[] ids = distinct.get(t).ids();
            if (ids.length > 0) {
                calls.add(new SparseClient.Rows(table.variable(), table.dim(), ids, gradients.get(t)));
            }
        }
        if (!calls.isEmpty()) {
            client.push(step, UpdateKind.GRADIENT, calls);
        }
    }

    /** Pushes table {@code t}'s distinct rows' summed gradients (from {@link #rowGradients}) for {@code step}. */
    void pushTable(SparseClient client, long step, int t, float[] gradient) {
        GraphTables.Table table = tables.list().get(t);
        long[] ids = distinct.get(t).ids();
        if (ids.length > 0) {
            client.push(table.variable(), table.dim(), step, UpdateKind.GRADIENT, ids, gradient);
        }
    }
}
