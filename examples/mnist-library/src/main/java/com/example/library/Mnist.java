package com.example.library;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.factory.Nd4j;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** The MNIST idx files (plain or .gz) as nd4j data sets: pixels scaled to [0, 1], one-hot labels. */
final class Mnist {
    private Mnist() {
    }

    /**
     * @param dir    the folder with {@code <set>-images-idx3-ubyte} and {@code <set>-labels-idx1-ubyte}
     * @param set    {@code train} or {@code t10k}
     * @param limit  at most this many examples, from the start
     */
    static DataSet read(Path dir, String set, int limit) {
        try (DataInputStream images = open(dir, set + "-images-idx3-ubyte");
             DataInputStream labels = open(dir, set + "-labels-idx1-ubyte")) {
            if (images.readInt() != 2051 || labels.readInt() != 2049) {
                throw new IOException("not MNIST idx files in " + dir);
            }
            int n = Math.min(limit, Math.min(images.readInt(), labels.readInt()));
            int rows = images.readInt();
            int cols = images.readInt();
            byte[] pixels = new byte[n * rows * cols];
            images.readFully(pixels);
            byte[] classes = new byte[n];
            labels.readFully(classes);
            float[] features = new float[pixels.length];
            for (int i = 0; i < pixels.length; i++) {
                features[i] = (pixels[i] & 0xFF) / 255f;
            }
            INDArray oneHot = Nd4j.zeros(DataType.FLOAT, n, 10);
            for (int i = 0; i < n; i++) {
                oneHot.putScalar(i, classes[i], 1f);
            }
            return new DataSet(Nd4j.create(features, new long[]{n, (long) rows * cols}, DataType.FLOAT), oneHot);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read MNIST " + set + " from " + dir, e);
        }
    }

    /**
     * @return this worker's examples (every {@code workers}-th, from {@code rank}) in batches of {@code batch};
     * every worker gets the same number of full batches, as synchronous training needs
     */
    static List<DataSet> shard(DataSet all, int rank, int workers, int batch) {
        int perWorker = all.numExamples() / workers / batch * batch;
        int[] rows = new int[perWorker];
        for (int i = 0; i < perWorker; i++) {
            rows[i] = rank + i * workers;
        }
        DataSet mine = all.get(rows);
        List<DataSet> batches = new ArrayList<>();
        for (int from = 0; from < perWorker; from += batch) {
            batches.add(new DataSet(mine.getFeatures().get(org.nd4j.linalg.indexing.NDArrayIndex.interval(from, from + batch)).dup(),
                    mine.getLabels().get(org.nd4j.linalg.indexing.NDArrayIndex.interval(from, from + batch)).dup()));
        }
        return batches;
    }

    private static DataInputStream open(Path dir, String name) throws IOException {
        Path plain = dir.resolve(name);
        InputStream in = Files.exists(plain) ? Files.newInputStream(plain)
                : new GZIPInputStream(Files.newInputStream(dir.resolve(name + ".gz")));
        return new DataInputStream(new java.io.BufferedInputStream(in, 1 << 16));
    }
}
