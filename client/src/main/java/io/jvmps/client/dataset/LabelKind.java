package io.jvmps.client.dataset;

/** What a CSV file's label column holds, and the label matrix a batch gets from it. */
public enum LabelKind {
    /** A class number (a whole number from 0): one-hot labels {@code [n, classes]}. */
    CLASS,
    /** A click, 0 or 1: labels {@code [n, 1]}. */
    BINARY,
    /** A finite real number (a rating, a price): labels {@code [n, 1]}. */
    REAL
}
