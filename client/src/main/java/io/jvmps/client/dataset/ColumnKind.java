package io.jvmps.client.dataset;

/**
 * What a CSV column other than the label holds, and what a batch gets from it
 * ({@link LabeledData#ids()} is keyed by the column's name).
 */
public enum ColumnKind {
    /** A finite number: one feature of {@link LabeledData#features()} (the default). */
    NUMBER,
    /** A categorical value written as a whole number: that number is its 64-bit id, int64 {@code [n]}. */
    ID,
    /** A categorical value of any text: its id is {@link CsvIds#hash} of the column's name and the text, {@code [n]}. */
    HASHED,
    /**
     * Several whole-number ids split by the format's value separator (a history, a list of genres): int64
     * {@code [n, m]} with {@code m} the most any row of the file has, padded with id 0, plus a float32 mask
     * {@code [n, m]} named {@code <column>_mask} (1 for a value, 0 for padding) for the graph's pooling.
     */
    IDS,
    /** Like {@link #IDS}, each value hashed as {@link #HASHED} hashes. */
    HASHED_IDS,
    /** Left out. */
    SKIP
}
