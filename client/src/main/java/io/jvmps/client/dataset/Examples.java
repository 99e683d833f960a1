package io.jvmps.client.dataset;

import java.util.stream.IntStream;

/**
 * A labelled data set the training loop reads by example index: the examples in memory
 * ({@link LabeledData}) or in a file read row by row ({@link CsvFile}). Indices run over
 * {@code [0, size())} in the data set's own order; sharding and shuffling are the caller's. Every
 * method may be called from several threads; returned batches are fresh copies.
 */
public interface Examples {

    /** @return number of examples */
    int size();

    /** @return features per example */
    int featureSize();

    /** @return number of classes (width of the one-hot labels) */
    int numClasses();

    /** @return rows of the source left out because they were bad (see {@code ps.worker.dataset.csv.skip-bad-rows}) */
    default long skippedRows() {
        return 0;
    }

    /**
     * @param indices example indices, each in {@code [0, size())}, repeats allowed
     * @return features {@code [n, featureSize()]} and one-hot labels {@code [n, numClasses()]} of those
     *         examples, in that order, float32
     */
    LabeledData gather(int[] indices);

    /**
     * @param from first index, inclusive
     * @param to   last index, exclusive; {@code from <= to <= size()}
     * @return the examples {@code [from, to)}
     */
    default LabeledData rows(int from, int to) {
        if (from < 0 || to > size() || from > to) {
            throw new IndexOutOfBoundsException("row range [" + from + ", " + to + ") is outside [0, " + size() + ")");
        }
        return gather(IntStream.range(from, to).toArray());
    }
}
