package io.jvmps.cluster;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a user brings: a model saved with SameDiff by their own code, and data in a CSV file. */
final class UserModelFiles {
    private UserModelFiles() {
    }

    /**
     * Saves a perceptron over raw 0-255 pixels: {@code pixels [-1, 784] / 255 -> relu(. W1 + b1) [64] -> logits
     * [10]}, softmax {@code class_probs}, mean cross-entropy {@code xent}, one-hot placeholder {@code digit}.
     */
    static Path pixelMlp(Path file, long seed) {
        return mlp(file, seed, 255.0);
    }

    /** The same perceptron over pixels already in [0, 1] (an image folder's rows): {@code pixels / 1}. */
    static Path unitPixelMlp(Path file, long seed) {
        return mlp(file, seed, 1.0);
    }

    private static Path mlp(Path file, long seed, double scale) {
        SameDiff sd = SameDiff.create();
        SDVariable pixels = sd.placeHolder("pixels", DataType.FLOAT, -1, 784);
        SDVariable digit = sd.placeHolder("digit", DataType.FLOAT, -1, 10);
        Nd4j.getRandom().setSeed(seed);
        SDVariable w1 = sd.var("hidden_W", Nd4j.randn(DataType.FLOAT, 784, 64).muli(Math.sqrt(2.0 / 784)));
        SDVariable b1 = sd.var("hidden_b", Nd4j.zeros(DataType.FLOAT, 64));
        SDVariable w2 = sd.var("out_W", Nd4j.randn(DataType.FLOAT, 64, 10).muli(Math.sqrt(1.0 / 64)));
        SDVariable b2 = sd.var("out_b", Nd4j.zeros(DataType.FLOAT, 10));
        SDVariable hidden = sd.nn().relu(pixels.div(scale).mmul(w1).add(b1), 0);
        SDVariable logits = hidden.mmul(w2).add(b2);
        sd.nn().softmax("class_probs", logits, 1);
        sd.loss().softmaxCrossEntropy("xent", digit, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.save(file.toFile(), false);
        return file;
    }

    /**
     * Writes the first {@code rows} MNIST examples of a split as a NumPy pair: {@code <prefix>-x.npy}, raw pixels
     * as uint8 {@code [rows, 28, 28]}, and {@code <prefix>-y.npy}, the digits as int64 {@code [rows]}.
     *
     * @return the features file; the labels file is beside it
     */
    static Path mnistNpy(Path dir, String prefix, MnistSplit split, int rows) throws IOException {
        LabeledData data = MnistDataset.load(TestPaths.mnist(), split, rows);
        Path x = dir.resolve(prefix + "-x.npy");
        Nd4j.writeAsNumpy(data.features().mul(255).castTo(DataType.UBYTE).reshape(data.size(), 28, 28), x.toFile());
        Nd4j.writeAsNumpy(data.labels().argMax(1).castTo(DataType.INT64), dir.resolve(prefix + "-y.npy").toFile());
        return x;
    }

    /**
     * Writes the first {@code rows} MNIST examples of a split as grey PNG files in one folder per digit
     * ({@code dir/<digit>/<row>.png}), as a user's own pictures would be.
     */
    static Path mnistImages(Path dir, MnistSplit split, int rows) throws IOException {
        LabeledData data = MnistDataset.load(TestPaths.mnist(), split, rows);
        float[][] pixels = data.features().toFloatMatrix();
        long[] labels = data.labels().argMax(1).toLongVector();
        for (int r = 0; r < pixels.length; r++) {
            java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(28, 28,
                    java.awt.image.BufferedImage.TYPE_BYTE_GRAY);
            byte[] grey = new byte[784];
            for (int p = 0; p < 784; p++) {
                grey[p] = (byte) Math.round(pixels[r][p] * 255);
            }
            image.getRaster().setDataElements(0, 0, 28, 28, grey);
            Path file = dir.resolve(Long.toString(labels[r])).resolve(r + ".png");
            Files.createDirectories(file.getParent());
            javax.imageio.ImageIO.write(image, "png", file.toFile());
        }
        return dir;
    }

    /**
     * Writes the first {@code rows} MNIST examples of a split as CSV: a header {@code p0,...,p783,digit}, raw
     * pixels 0-255, the label last.
     */
    static Path mnistCsv(Path file, MnistSplit split, int rows) throws IOException {
        LabeledData data = MnistDataset.load(TestPaths.mnist(), split, rows);
        float[][] pixels = data.features().toFloatMatrix();
        long[] labels = data.labels().argMax(1).toLongVector();
        try (Writer out = Files.newBufferedWriter(file)) {
            for (int c = 0; c < 784; c++) {
                out.write("p" + c + ",");
            }
            out.write("digit\n");
            for (int r = 0; r < pixels.length; r++) {
                StringBuilder line = new StringBuilder(4 * 785);
                for (float p : pixels[r]) {
                    line.append(Math.round(p * 255)).append(',');
                }
                out.write(line.append(labels[r]).append('\n').toString());
            }
        }
        return file;
    }

    /**
     * Writes the first {@code rows} MNIST examples of a split as LibSVM: the digit, then {@code index:value}
     * for every pixel that is not 0 (index 1 to 784, value 0-1).
     */
    static Path mnistLibSvm(Path file, MnistSplit split, int rows) throws IOException {
        LabeledData data = MnistDataset.load(TestPaths.mnist(), split, rows);
        float[][] pixels = data.features().toFloatMatrix();
        long[] labels = data.labels().argMax(1).toLongVector();
        try (Writer out = Files.newBufferedWriter(file)) {
            out.write("# MNIST " + split + ", " + rows + " examples\n");
            for (int r = 0; r < pixels.length; r++) {
                StringBuilder line = new StringBuilder().append(labels[r]);
                for (int c = 0; c < pixels[r].length; c++) {
                    if (pixels[r][c] != 0f) {
                        line.append(' ').append(c + 1).append(':').append(pixels[r][c]);
                    }
                }
                out.write(line.append('\n').toString());
            }
        }
        return file;
    }
}
