package io.jvmps.worker.config;

/** The kinds of job a worker runs ({@code ps.worker.job}). */
public enum JobKind {
    /** Dense classification model ({@code ps.worker.model}) on {@code ps.worker.dataset.format}. */
    CLASSIFICATION,
    /** Wide-and-deep click prediction on synthetic click data, with sparse embedding tables. */
    CTR,
    /**
     * Softmax regression on LibSVM data ({@code ps.worker.dataset.format=LIBSVM}) whose weights are a sparse
     * table, one row per feature; exported as the dense SOFTMAX graph.
     */
    SPARSE_LINEAR
}
