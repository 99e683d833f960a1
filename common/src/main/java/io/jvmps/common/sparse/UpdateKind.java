package io.jvmps.common.sparse;

/** What the values of a sparse push are. */
public enum UpdateKind {
    /** Row gradients: the server sums repeated ids and applies its optimizer to each touched row once. */
    GRADIENT,
    /**
     * Row deltas already computed by the worker (an embedding cache writing back what it changed locally):
     * the server adds them to the rows as they are; optimizer state is not touched.
     */
    DELTA
}
