package io.jvmps.client.dataset;

/** The two MNIST sets and the base names of their IDX files. */
public enum MnistSplit {
    /** 60,000 training examples. */
    TRAIN("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    /** 10,000 test examples. */
    TEST("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte");

    private final String imagesFile;
    private final String labelsFile;

    MnistSplit(String imagesFile, String labelsFile) {
        this.imagesFile = imagesFile;
        this.labelsFile = labelsFile;
    }

    /** @return base name of the images file (also accepted with a {@code .gz} suffix) */
    public String imagesFile() {
        return imagesFile;
    }

    /** @return base name of the labels file (also accepted with a {@code .gz} suffix) */
    public String labelsFile() {
        return labelsFile;
    }
}
