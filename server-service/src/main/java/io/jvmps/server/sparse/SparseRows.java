package io.jvmps.server.sparse;

import io.jvmps.common.sparse.SparseTableSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * A copy of the rows of one sparse table that exist (rows never pushed are not in it: they read as
 * their initial value anyway), as checkpoints store it. Row {@code i} has id {@code ids[i]}, update
 * count {@code steps[i]} (lazy Adam's per-row step) and {@code stride()} floats at
 * {@code data[i * stride()]}: {@code dim} values, then {@code stateSlots} x {@code dim} optimizer state.
 * Rows are keyed by id, not by server, so a copy taken on 2 servers restores onto 1 or 3. Immutable by
 * convention: do not modify the arrays.
 *
 * @param spec       the table's declaration
 * @param stateSlots optimizer state slots per value
 * @param updates    pushes the table had applied (summed over the servers when merged)
 * @param ids        row ids, distinct
 * @param steps      per-row update counts
 * @param data       row-major values and state
 */
public record SparseRows(SparseTableSpec spec, int stateSlots, long updates, long[] ids, int[] steps, float[] data) {
    /** @throws IllegalArgumentException when the arrays do not agree with each other */
    public SparseRows {
        if (stateSlots < 0 || ids.length != steps.length || (long) ids.length * spec.dim() * (1 + stateSlots)
                != data.length) {
            throw new IllegalArgumentException("sparse table '" + spec.name() + "': " + ids.length + " ids, "
                    + steps.length + " update counts and " + data.length + " floats do not fit dim " + spec.dim()
                    + " with " + stateSlots + " state slots");
        }
    }

    /** @return floats per row */
    public int stride() {
        return spec.dim() * (1 + stateSlots);
    }

    /** @return number of rows */
    public int rows() {
        return ids.length;
    }

    /** @return the rows whose id {@code keep} accepts */
    public SparseRows filter(LongPredicate keep) {
        int n = 0;
        for (long id : ids) {
            if (keep.test(id)) {
                n++;
            }
        }
        if (n == ids.length) {
            return this;
        }
        long[] i2 = new long[n];
        int[] s2 = new int[n];
        float[] d2 = new float[n * stride()];
        int at = 0;
        for (int i = 0; i < ids.length; i++) {
            if (keep.test(ids[i])) {
                i2[at] = ids[i];
                s2[at] = steps[i];
                System.arraycopy(data, i * stride(), d2, at * stride(), stride());
                at++;
            }
        }
        return new SparseRows(spec, stateSlots, updates, i2, s2, d2);
    }

    /**
     * Joins the copies of the same tables taken on several servers into one copy per table.
     *
     * @throws IllegalArgumentException when two copies of a table disagree on its declaration or hold the same id
     */
    public static List<SparseRows> merge(List<SparseRows> copies) {
        Map<String, List<SparseRows>> byName = new LinkedHashMap<>();
        copies.forEach(c -> byName.computeIfAbsent(c.spec().name(), n -> new ArrayList<>()).add(c));
        List<SparseRows> merged = new ArrayList<>();
        for (List<SparseRows> same : byName.values()) {
            SparseRows first = same.get(0);
            int rows = 0;
            long updates = 0;
            for (SparseRows c : same) {
                if (!c.spec().equals(first.spec()) || c.stateSlots() != first.stateSlots()) {
                    throw new IllegalArgumentException("sparse table '" + first.spec().name() + "' is stored as "
                            + first.spec() + " and as " + c.spec());
                }
                rows += c.rows();
                updates += c.updates();
            }
            long[] ids = new long[rows];
            int[] steps = new int[rows];
            float[] data = new float[rows * first.stride()];
            int at = 0;
            for (SparseRows c : same) {
                System.arraycopy(c.ids(), 0, ids, at, c.rows());
                System.arraycopy(c.steps(), 0, steps, at, c.rows());
                System.arraycopy(c.data(), 0, data, at * first.stride(), c.data().length);
                at += c.rows();
            }
            long distinct = Arrays.stream(ids).distinct().count();
            if (distinct != rows) {
                throw new IllegalArgumentException("sparse table '" + first.spec().name() + "' holds "
                        + (rows - distinct) + " ids twice across the checkpoint's parts");
            }
            merged.add(new SparseRows(first.spec(), first.stateSlots(), updates, ids, steps, data));
        }
        return merged;
    }
}
