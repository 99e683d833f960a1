package io.jvmps.worker.config;

/** Where training samples come from ({@code ps.worker.dataset.format}). */
public enum DataFormat {
    /** MNIST IDX files under {@code ps.worker.dataset.path}. */
    MNIST,
    /** A seeded synthetic classification set (fast tests). */
    SYNTHETIC,
    /** CSV files {@code train-file} and {@code test-file}: one example per row, see {@code ps.worker.dataset.csv.*}. */
    CSV,
    /** NumPy {@code .npy} pairs: {@code train-file} + {@code train-labels-file}, {@code test-file} + {@code test-labels-file}. */
    NPY,
    /** LibSVM (svmlight) files {@code train-file} and {@code test-file}, spread into dense rows of {@code num-features}. */
    LIBSVM,
    /** Pictures in one folder per class: {@code image.train-dir} and {@code image.test-dir}, see {@code ps.worker.dataset.image.*}. */
    IMAGES
}
