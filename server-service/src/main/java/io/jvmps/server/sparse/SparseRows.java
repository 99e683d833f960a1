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
 * {@code data[i * stride()]}: {@code dim} values, then {@code stateFloats} floats of optimizer state ({@code slots x
 * dim} for a per-element optimizer, 1 for row-wise Adagrad).
 * Rows are keyed by id, not by server, so a copy taken on 2 servers restores onto 1 or 3. Immutable by
 * convention: do not modify the arrays.
 *
 * @param spec       the table's declaration
 * @param stateFloats optimizer state floats per row
 * @param updates    pushes the table had applied (summed over the servers when merged)
 * @param ids        row ids, distinct
 * @param steps      per-row update counts
 * @param data       row-major values and state
 * @param touched    per-row last-touched table clock (a table that evicts idle rows), or null
 * @param admission  the admission sketch's counters and count (a table that admits ids), or null
 */
public record SparseRows(SparseTableSpec spec, int stateFloats, long updates, long[] ids, int[] steps, float[] data,
                         long[] touched, Admission admission) {
    /**
     * A saved admission sketch.
     *
     * @param counters  the count-min sketch's byte counters, row by row
     * @param additions pushes counted since its last aging
     */
    public record Admission(byte[] counters, long additions) {
        /** @throws IllegalArgumentException unless the counters are {@value AdmissionSketch#DEPTH} rows of a power of two */
        public Admission {
            int width = counters.length / AdmissionSketch.DEPTH;
            if (counters.length % AdmissionSketch.DEPTH != 0 || Integer.bitCount(width) != 1 || additions < 0) {
                throw new IllegalArgumentException("an admission sketch of " + counters.length + " counters and "
                        + additions + " counted pushes is not one this server writes");
            }
        }
    }

    /** A copy without clocks or admission state. */
    public SparseRows(SparseTableSpec spec, int stateFloats, long updates, long[] ids, int[] steps, float[] data) {
        this(spec, stateFloats, updates, ids, steps, data, null, null);
    }

    /** @throws IllegalArgumentException when the arrays do not agree with each other */
    public SparseRows {
        if (touched != null && touched.length != ids.length) {
            throw new IllegalArgumentException("sparse table '" + spec.name() + "': " + ids.length + " ids and "
                    + touched.length + " clocks");
        }
        if (stateFloats < 0 || ids.length != steps.length || (long) ids.length * (spec.dim() + stateFloats)
                != data.length) {
            throw new IllegalArgumentException("sparse table '" + spec.name() + "': " + ids.length + " ids, "
                    + steps.length + " update counts and " + data.length + " floats do not fit dim " + spec.dim()
                    + " with " + stateFloats + " state floats per row");
        }
    }

    /** @return floats per row */
    public int stride() {
        return spec.dim() + stateFloats;
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
        long[] t2 = touched == null ? null : new long[n];
        float[] d2 = new float[n * stride()];
        int at = 0;
        for (int i = 0; i < ids.length; i++) {
            if (keep.test(ids[i])) {
                i2[at] = ids[i];
                s2[at] = steps[i];
                if (t2 != null) {
                    t2[at] = touched[i];
                }
                System.arraycopy(data, i * stride(), d2, at * stride(), stride());
                at++;
            }
        }
        return new SparseRows(spec, stateFloats, updates, i2, s2, d2, t2, admission);
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
                if (!c.spec().equals(first.spec()) || c.stateFloats() != first.stateFloats()) {
                    throw new IllegalArgumentException("sparse table '" + first.spec().name() + "' is stored as "
                            + first.spec() + " and as " + c.spec());
                }
                rows += c.rows();
                updates += c.updates();
            }
            long[] ids = new long[rows];
            int[] steps = new int[rows];
            boolean clocks = same.stream().allMatch(c -> c.touched() != null);
            long[] touched = clocks ? new long[rows] : null;
            AdmissionSketch sketch = null;
            float[] data = new float[rows * first.stride()];
            int at = 0;
            for (SparseRows c : same) {
                System.arraycopy(c.ids(), 0, ids, at, c.rows());
                System.arraycopy(c.steps(), 0, steps, at, c.rows());
                System.arraycopy(c.data(), 0, data, at * first.stride(), c.data().length);
                if (touched != null) {
                    System.arraycopy(c.touched(), 0, touched, at, c.rows());
                }
                if (c.admission() != null) {
                    AdmissionSketch part = AdmissionSketch.restore(c.admission().counters(), c.admission().additions());
                    if (sketch == null) {
                        sketch = part;
                    } else {
                        sketch.merge(part);
                    }
                }
                at += c.rows();
            }
            long distinct = Arrays.stream(ids).distinct().count();
            if (distinct != rows) {
                throw new IllegalArgumentException("sparse table '" + first.spec().name() + "' holds "
                        + (rows - distinct) + " ids twice across the checkpoint's parts");
            }
            merged.add(new SparseRows(first.spec(), first.stateFloats(), updates, ids, steps, data, touched,
                    sketch == null ? null : new Admission(sketch.counters(), sketch.additions())));
        }
        return merged;
    }
}
