package io.jvmps.client.dataset;

/**
 * A batch of sparse examples in compressed-row form, as {@link LibSvmFile#gatherSparse} reads them: example
 * {@code r}'s features are positions {@code rowStarts[r]} to {@code rowStarts[r + 1] - 1} of {@link #ids}
 * and {@link #values}, ids increasing within a row. Ids are 0-based feature columns (a LibSVM index minus
 * one). The arrays are owned by the batch; nothing copies them, so callers must not change them.
 *
 * @param rowStarts {@code size + 1} offsets into {@code ids} and {@code values}; {@code rowStarts[0] == 0}
 * @param ids       the feature column of each stored value
 * @param values    each stored value (finite)
 * @param labels    each example's class, from 0
 */
public record SparseBatch(int[] rowStarts, long[] ids, float[] values, int[] labels) {

    /** @return examples in the batch */
    public int size() {
        return labels.length;
    }

    /** @return stored (non-zero) values in the batch */
    public int nonZeros() {
        return ids.length;
    }
}
