package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;

/**
 * A pair of NumPy {@code .npy} files: features {@code [n, ...]} (every row flattened in C order, any type of
 * {@link NpyType}) and labels {@code [n]} or {@code [n, 1]} (class numbers: whole numbers from 0). Opening
 * reads the labels into memory (4 bytes per row) and checks every feature once (finite numbers); the
 * features stay in the file and {@link #gather} reads just the rows of a batch, by position. An error names
 * the file, the row and what is wrong. Immutable and thread-safe; each {@link #gather} opens the file.
 */
public final class NpyFile implements Examples {
    private static final Logger log = LoggerFactory.getLogger(NpyFile.class);
    private static final int CHUNK = 1 << 20;

    private final Path features;
    private final NpyHeader header;
    private final int width;
    private final int[] labels;
    private final int classes;
    private final long length;

    private NpyFile(Path features, NpyHeader header, int[] labels, int classes, long length) {
        this.features = features;
        this.header = header;
        this.width = (int) header.rowElements();
        this.labels = labels;
        this.classes = classes;
        this.length = length;
    }

    /**
     * @param featuresFile the features {@code .npy}
     * @param labelsFile   the labels {@code .npy}, as many rows
     * @param numClasses   classes of the labels, or 0 to take the largest label + 1 (at least 2)
     * @return the opened pair
     * @throws PsException INVALID_ARGUMENT for a missing file, a file that is not {@code .npy} or has another
     *                     element type or order, row counts that differ, a feature that is not finite or a
     *                     label that is not a class number below {@code numClasses}
     */
    public static NpyFile open(Path featuresFile, Path labelsFile, int numClasses) {
        for (Path f : new Path[]{featuresFile, labelsFile}) {
            if (!Files.isRegularFile(f)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "no .npy file at " + f.toAbsolutePath());
            }
        }
        long began = System.nanoTime();
        try (FileChannel x = FileChannel.open(featuresFile, StandardOpenOption.READ);
             FileChannel y = FileChannel.open(labelsFile, StandardOpenOption.READ)) {
            NpyHeader xh = NpyHeader.read(featuresFile, x);
            NpyHeader yh = NpyHeader.read(labelsFile, y);
            if (yh.shape().length > 2 || yh.rowElements() != 1) {
                throw bad(labelsFile, "has shape " + Arrays.toString(yh.shape()) + "; labels are a vector [n] of "
                        + "class numbers");
            }
            if (xh.rows() != yh.rows()) {
                throw bad(featuresFile, "has " + xh.rows() + " rows but " + labelsFile + " has " + yh.rows());
            }
            if (xh.rows() == 0 || xh.rows() > Integer.MAX_VALUE - 8 || xh.rowElements() < 1
                    || xh.rowElements() > Integer.MAX_VALUE / 8) {
                throw bad(featuresFile, "has shape " + Arrays.toString(xh.shape()) + "; a data set needs 1 to "
                        + (Integer.MAX_VALUE - 8) + " rows of at least one feature");
            }
            int[] labels = readLabels(labelsFile, y, yh, numClasses);
            checkFeatures(featuresFile, x, xh);
            int max = Arrays.stream(labels).max().orElse(-1);
            int classes = numClasses > 0 ? numClasses : max + 1;
            if (classes < 2) {
                throw bad(labelsFile, "has only label 0; a classifier needs at least 2 classes (set "
                        + "ps.worker.dataset.num-classes if this file lacks some)");
            }
            NpyFile npy = new NpyFile(featuresFile, xh, labels, classes, x.size());
            log.info(String.format(Locale.ROOT, "Opened %s: %d rows of %d features (%s), %d classes, checked in %.1f s",
                    featuresFile, labels.length, npy.width, xh.type(), classes, (System.nanoTime() - began) / 1e9));
            return npy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + featuresFile + " or " + labelsFile, e);
        }
    }

    @Override
    public int size() {
        return labels.length;
    }

    @Override
    public int featureSize() {
        return width;
    }

    @Override
    public int numClasses() {
        return classes;
    }

    /** @throws PsException INVALID_ARGUMENT when the features file changed since it was opened */
    @Override
    public LabeledData gather(int[] indices) {
        float[] x = new float[indices.length * width];
        float[] y = new float[indices.length * classes];
        int rowBytes = width * header.type().bytes();
        ByteBuffer row = ByteBuffer.allocate(rowBytes).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileReads.openUnchanged(features, length)) {
            for (int r = 0; r < indices.length; r++) {
                int i = indices[r];
                if (i < 0 || i >= labels.length) {
                    throw new IndexOutOfBoundsException("row index " + i + " is outside [0, " + labels.length + ")");
                }
                row.clear();
                FileReads.fill(channel, row, header.dataOffset() + (long) i * rowBytes);
                row.flip();
                for (int c = 0; c < width; c++) {
                    x[r * width + c] = (float) header.type().next(row);
                }
                y[r * classes + labels[i]] = 1f;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + features, e);
        }
        return new LabeledData(Nd4j.create(x, new long[]{indices.length, width}, DataType.FLOAT),
                Nd4j.create(y, new long[]{indices.length, classes}, DataType.FLOAT));
    }

    private static int[] readLabels(Path file, FileChannel channel, NpyHeader header, int numClasses)
            throws IOException {
        int n = (int) header.rows();
        int[] labels = new int[n];
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK - CHUNK % 8).order(ByteOrder.LITTLE_ENDIAN);
        long at = header.dataOffset();
        int i = 0;
        while (i < n) {
            buffer.clear();
            int want = (int) Math.min(buffer.capacity(), (long) (n - i) * header.type().bytes());
            buffer.limit(want);
            FileReads.fill(channel, buffer, at);
            buffer.flip();
            at += want;
            while (buffer.remaining() >= header.type().bytes()) {
                double value = header.type().next(buffer);
                if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE - 1) {
                    throw bad(file, "row " + i + ": label " + value + " is not a class number (a whole number from 0)");
                }
                if (numClasses > 0 && value >= numClasses) {
                    throw bad(file, "row " + i + ": label " + (long) value + " is outside the " + numClasses
                            + " classes [0, " + numClasses + ") of the training data (ps.worker.dataset.num-classes)");
                }
                labels[i++] = (int) value;
            }
        }
        return labels;
    }

    private static void checkFeatures(Path file, FileChannel channel, NpyHeader header) throws IOException {
        NpyType type = header.type();
        if (type != NpyType.FLOAT32 && type != NpyType.FLOAT64) {
            return; // integers are always finite
        }
        long elements = header.rows() * header.rowElements();
        ByteBuffer buffer = ByteBuffer.allocate(CHUNK - CHUNK % 8).order(ByteOrder.LITTLE_ENDIAN);
        long at = header.dataOffset();
        long index = 0;
        while (index < elements) {
            buffer.clear();
            buffer.limit((int) Math.min(buffer.capacity(), (elements - index) * type.bytes()));
            FileReads.fill(channel, buffer, at);
            buffer.flip();
            at += buffer.limit();
            while (buffer.remaining() >= type.bytes()) {
                double value = type.next(buffer);
                if (!Double.isFinite(value) || (type == NpyType.FLOAT64 && !Float.isFinite((float) value))) {
                    throw bad(file, "row " + index / header.rowElements() + " column " + index % header.rowElements()
                            + ": " + value + " is not a finite float32 number");
                }
                index++;
            }
        }
    }

    private static PsException bad(Path file, String what) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, file + " " + what);
    }
}
