package io.jvmps.worker.train;

import io.jvmps.worker.config.DatasetProperties;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.NpyFile;
import io.jvmps.client.dataset.SyntheticData;

import java.nio.file.Path;

/** Loads the training and test sets the configuration names. */
public class DataLoader {
    /** Synthetic sets are shaped like MNIST so every model runs on them. */
    static final int SYNTHETIC_FEATURES = MnistDataset.FEATURES;
    static final int SYNTHETIC_CLASSES = MnistDataset.CLASSES;
    static final int SYNTHETIC_TRAIN = 4096;
    static final int SYNTHETIC_TEST = 1024;
    static final double SYNTHETIC_SEPARATION = 0.1;

    /**
     * @param train training samples
     * @param test  test samples
     */
    public record Loaded(Examples train, Examples test) {
    }

    /**
     * @param data the data set's settings ({@code ps.worker.dataset.*})
     * @param seed seed of a synthetic set ({@code ps.worker.training.seed})
     * @return the training and test sets
     */
    public Loaded load(DatasetProperties data, long seed) {
        return switch (data.format()) {
            case MNIST -> {
                Path dir = Path.of(data.path());
                MnistDataset.requirePresent(dir);
                yield new Loaded(MnistDataset.load(dir, MnistSplit.TRAIN, data.trainLimit()),
                        MnistDataset.load(dir, MnistSplit.TEST, data.testLimit()));
            }
            case CSV -> {
                CsvFile train = CsvFile.open(Path.of(data.trainFile()), data.csv().format(), data.numClasses());
                yield new Loaded(train, CsvFile.open(Path.of(data.testFile()), data.csv().format(), train.numClasses()));
            }
            case LIBSVM -> {
                LibSvmFile train = LibSvmFile.open(Path.of(data.trainFile()), data.numFeatures(), data.numClasses());
                yield new Loaded(train, LibSvmFile.open(Path.of(data.testFile()), train.featureSize(),
                        train.numClasses()));
            }
            case NPY -> {
                NpyFile train = NpyFile.open(Path.of(data.trainFile()), Path.of(data.trainLabelsFile()),
                        data.numClasses());
                yield new Loaded(train, NpyFile.open(Path.of(data.testFile()), Path.of(data.testLabelsFile()),
                        train.numClasses()));
            }
            case IMAGES -> {
                io.jvmps.client.dataset.ImageFolder train = io.jvmps.client.dataset.ImageFolder.open(
                        Path.of(data.image().trainDir()), data.image().layout());
                yield new Loaded(train, io.jvmps.client.dataset.ImageFolder.open(Path.of(data.image().testDir()),
                        train.layout(), train.classes()));
            }
            case SYNTHETIC -> {
                int n = data.trainLimit() > 0 ? data.trainLimit() : SYNTHETIC_TRAIN;
                int m = data.testLimit() > 0 ? data.testLimit() : SYNTHETIC_TEST;
                yield new Loaded(
                        SyntheticData.blobs(n, SYNTHETIC_FEATURES, SYNTHETIC_CLASSES, SYNTHETIC_SEPARATION, seed, seed),
                        SyntheticData.blobs(m, SYNTHETIC_FEATURES, SYNTHETIC_CLASSES, SYNTHETIC_SEPARATION, seed,
                                seed + 1));
            }
        };
    }
}
