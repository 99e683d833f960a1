package io.jvmps.client.dataset;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A set of examples: a feature matrix {@code [n, d]} and a label matrix {@code [n, k]} (one-hot classes, or
 * {@code k} real targets), both float32, and for models with embedding tables the examples' ids by placeholder
 * name (int64 {@code [n]}, or {@code [n, m]} for a field of {@code m} ids), row i of each belonging to example i.
 * Slicing methods return copies, so a slice may be handed to a model or another thread while this set stays
 * unchanged.
 *
 * @param features {@code [n, d]} ({@code d} may be 0 when every input is an id)
 * @param labels   {@code [n, k]}
 * @param ids      the examples' ids per placeholder, each with {@code n} rows; empty without tables
 */
public record LabeledData(INDArray features, INDArray labels, Map<String, INDArray> ids) implements Examples {

    /** Features and labels without ids. */
    public LabeledData(INDArray features, INDArray labels) {
        this(features, labels, Map.of());
    }

    /** Checks both are matrices with the same number of rows, and so does every id array. */
    public LabeledData {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
        ids = Collections.unmodifiableMap(new LinkedHashMap<>(ids));
        for (Map.Entry<String, INDArray> e : ids.entrySet()) {
            if (e.getValue().rank() < 1 || e.getValue().size(0) != features.rows()) {
                throw new IllegalArgumentException("ids '" + e.getKey() + "' have shape "
                        + java.util.Arrays.toString(e.getValue().shape()) + "; they need " + features.rows() + " rows");
            }
        }
        if (features.rank() != 2 || labels.rank() != 2) {
            throw new IllegalArgumentException("features and labels must be matrices, got ranks "
                    + features.rank() + " and " + labels.rank());
        }
        if (features.rows() != labels.rows()) {
            throw new IllegalArgumentException("features have " + features.rows() + " rows but labels have "
                    + labels.rows());
        }
    }

    /** @return number of examples */
    @Override
    public int size() {
        return (int) features.size(0);
    }

    /** @return number of features per example */
    @Override
    public int featureSize() {
        return (int) features.size(1);
    }

    /** @return number of classes (width of the one-hot labels) */
    @Override
    public int numClasses() {
        return (int) labels.size(1);
    }

    /**
     * @param from first row, inclusive
     * @param to   last row, exclusive; {@code from <= to <= size()}
     * @return a copy of rows {@code [from, to)}
     */
    @Override
    public LabeledData rows(int from, int to) {
        if (from < 0 || to > size() || from > to) {
            throw new IndexOutOfBoundsException("row range [" + from + ", " + to + ") is outside [0, " + size() + ")");
        }
        if (from == to) {
            return gather(new int[0]);
        }
        Map<String, INDArray> rowIds = new LinkedHashMap<>();
        if (!ids.isEmpty()) {
            int[] indices = java.util.stream.IntStream.range(from, to).toArray();
            ids.forEach((name, v) -> rowIds.put(name, gatherIds(v, indices)));
        }
        // a contiguous range is one copy of a view, not a gather of rows
        return new LabeledData(featureSize() == 0 ? Nd4j.create(features.dataType(), to - from, 0)
                : features.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup('c'),
                labels.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup('c'), rowIds);
    }

    /** @return the given rows of an int64 id array of any rank, as int64 */
    private static INDArray gatherIds(INDArray v, int[] indices) {
        long[] all = v.dup('c').data().asLong();
        int width = (int) (all.length / Math.max(1, v.size(0)));
        long[] out = new long[indices.length * width];
        for (int r = 0; r < indices.length; r++) {
            System.arraycopy(all, indices[r] * width, out, r * width, width);
        }
        long[] shape = v.shape().clone();
        shape[0] = indices.length;
        return Nd4j.createFromArray(out).reshape(shape);
    }

    /**
     * @param indices row indices, each in {@code [0, size())}, repeats allowed
     * @return a copy of those rows, in that order
     */
    @Override
    public LabeledData gather(int[] indices) {
        int n = size();
        for (int i : indices) {
            if (i < 0 || i >= n) {
                throw new IndexOutOfBoundsException("row index " + i + " is outside [0, " + n + ")");
            }
        }
        Map<String, INDArray> gatheredIds = new LinkedHashMap<>();
        if (indices.length == 0) {
            ids.forEach((name, v) -> {
                long[] shape = v.shape().clone();
                shape[0] = 0;
                gatheredIds.put(name, Nd4j.create(v.dataType(), shape));
            });
            return new LabeledData(
                    Nd4j.create(features.dataType(), 0, featureSize()),
                    Nd4j.create(labels.dataType(), 0, numClasses()), gatheredIds);
        }
        ids.forEach((name, v) -> gatheredIds.put(name, gatherIds(v, indices)));
        return new LabeledData(featureSize() == 0 ? Nd4j.create(features.dataType(), indices.length, 0)
                : features.getRows(indices), labels.getRows(indices), gatheredIds);
    }
}
