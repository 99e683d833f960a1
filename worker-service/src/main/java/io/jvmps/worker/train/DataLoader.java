package io.jvmps.worker.train;

import io.jvmps.worker.config.WorkerProperties;
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

    /** @return the data sets for this configuration */
    public Loaded load(WorkerProperties props) {
        return switch (props.dataset().format()) {
            case MNIST -> {
                Path dir = Path.of(props.dataset().path());
                MnistDataset.requirePresent(dir);
                yield new Loaded(MnistDataset.load(dir, MnistSplit.TRAIN, props.dataset().trainLimit()),
                        MnistDataset.load(dir, MnistSplit.TEST, props.dataset().testLimit()));
            }
            case CSV -> {
                CsvFile train = CsvFile.open(Path.of(props.dataset().trainFile()), props.dataset().csv().format(),
                        props.dataset().numClasses());
                yield new Loaded(train, CsvFile.open(Path.of(props.dataset().testFile()), props.dataset().csv().format(),
                        train.numClasses()));
            }
            case LIBSVM -> {
                LibSvmFile train = LibSvmFile.open(Path.of(props.dataset().trainFile()), props.dataset().numFeatures(),
                        props.dataset().numClasses());
                yield new Loaded(train, LibSvmFile.open(Path.of(props.dataset().testFile()), train.featureSize(),
                        train.numClasses()));
            }
            case NPY -> {
                NpyFile train = NpyFile.open(Path.of(props.dataset().trainFile()), Path.of(props.dataset().trainLabelsFile()),
                        props.dataset().numClasses());
                yield new Loaded(train, NpyFile.open(Path.of(props.dataset().testFile()), Path.of(props.dataset().testLabelsFile()),
                        train.numClasses()));
            }
            case SYNTHETIC -> {
                int n = props.dataset().trainLimit() > 0 ? props.dataset().trainLimit() : SYNTHETIC_TRAIN;
                int m = props.dataset().testLimit() > 0 ? props.dataset().testLimit() : SYNTHETIC_TEST;
                yield new Loaded(
                        SyntheticData.blobs(n, SYNTHETIC_FEATURES, SYNTHETIC_CLASSES, SYNTHETIC_SEPARATION,
                                props.training().seed(), props.training().seed()),
                        SyntheticData.blobs(m, SYNTHETIC_FEATURES, SYNTHETIC_CLASSES, SYNTHETIC_SEPARATION,
                                props.training().seed(), props.training().seed() + 1));
            }
        };
    }
}
