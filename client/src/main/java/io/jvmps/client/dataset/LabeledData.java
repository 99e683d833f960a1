package io.jvmps.client.dataset;

import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

import java.util.Objects;

/**
 * A set of examples: a feature matrix {@code [n, d]} and a one-hot label matrix {@code [n, k]},
 * both float32, row i of one belonging to row i of the other. Slicing methods return copies, so a
 * slice may be handed to a model or another thread while this set stays unchanged.
 *
 * @param features {@code [n, d]}
 * @param labels   {@code [n, k]}, one-hot
 */
public record LabeledData(INDArray features, INDArray labels) implements Examples {

    /** Checks both are matrices with the same number of rows. */
    public LabeledData {
        Objects.requireNonNull(features, "features");
        Objects.requireNonNull(labels, "labels");
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
        return new LabeledData(
                features.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup('c'),
                labels.get(NDArrayIndex.interval(from, to), NDArrayIndex.all()).dup('c'));
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
        if (indices.length == 0) {
            return new LabeledData(
                    Nd4j.create(features.dataType(), 0, featureSize()),
                    Nd4j.create(labels.dataType(), 0, numClasses()));
        }
        return new LabeledData(features.getRows(indices), labels.getRows(indices));
    }
}
