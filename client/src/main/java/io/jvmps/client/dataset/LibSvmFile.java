package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * A LibSVM (svmlight) file of labelled examples for a dense model: one example per line,
 * {@code <label> <index>:<value> <index>:<value> ...}, indices from 1 and increasing, absent features 0.
 * Labels are class numbers from 0, or {@code -1} / {@code +1} for a binary file (class 0 and 1). Opening
 * the file reads it once, checks every line and keeps where each line starts (8 bytes per row), like
 * {@link CsvFile}; {@link #gather} reads the lines of a batch and spreads them into dense rows of
 * {@link #featureSize()} features. Blank lines and lines starting with {@code #} are skipped; a
 * {@code #} comment after the features ends the line. A bad line stops the opening with an error naming the
 * file, the line and what is wrong. Immutable and thread-safe; each {@link #gather} opens the file for itself.
 */
public final class LibSvmFile implements Examples {
    private static final Logger log = LoggerFactory.getLogger(LibSvmFile.class);

    private final Path file;
    private final int features;
    private final int classes;
    private final boolean binary;
    private final IndexedLines lines;
    private final int widest;

    private LibSvmFile(Path file, int features, int classes, boolean binary, IndexedLines lines, int widest) {
        this.widest = widest;
        this.file = file;
        this.features = features;
        this.classes = classes;
        this.binary = binary;
        this.lines = lines;
    }

    /**
     * Reads and checks the whole file once and indexes its lines.
     *
     * @param numFeatures features per example, or 0 for the largest index in the file
     * @param numClasses  classes, or 0 for the largest label + 1 (at least 2)
     * @throws PsException INVALID_ARGUMENT for a missing file, a label that is no class number (nor -1/+1),
     *                     a feature that is not {@code index:value}, an index below 1, not increasing or
     *                     above {@code numFeatures}, a value that is not a finite number, or no examples
     */
    public static LibSvmFile open(Path file, int numFeatures, int numClasses) {
        if (!Files.isRegularFile(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "no LibSVM file at " + file.toAbsolutePath());
        }
        long began = System.nanoTime();
        IndexedLines.Builder starts = new IndexedLines.Builder(file);
        int maxIndex = 0;
        int widest = 0;
        int maxLabel = -1;
        boolean negative = false;
        boolean zero = false;
        long offset = 0;
        long lineNumber = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20)) {
            byte[] line = new byte[256];
            while (true) {
                int n = 0;
                int b;
                while ((b = in.read()) >= 0 && b != '\n') {
                    if (n == line.length) {
                        line = Arrays.copyOf(line, n * 2);
                    }
                    line[n++] = (byte) b;
                }
                if (b < 0 && n == 0) {
                    break;
                }
                lineNumber++;
                long start = offset;
                offset += n + (b < 0 ? 0 : 1);
                Row row = parse(line, n, numFeatures, file, lineNumber);
                if (row == null) {
                    continue;
                }
                starts.add(start);
                maxIndex = Math.max(maxIndex, row.lastIndex());
                widest = Math.max(widest, row.count());
                zero |= row.label() == 0;
                negative |= row.label() < 0;
                maxLabel = Math.max(maxLabel, row.label());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (starts.size() == 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " has no examples");
        }
        if (negative && (maxLabel > 1 || zero)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + ": a label of -1 makes it a binary file "
                    + "(-1 and +1), but it also has label " + (zero ? 0 : maxLabel));
        }
        int classes = numClasses > 0 ? numClasses : Math.max(2, maxLabel + 1);
        if (!negative && maxLabel >= classes) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " has label " + maxLabel + ", at or above the "
                    + classes + " classes given");
        }
        int features = numFeatures > 0 ? numFeatures : maxIndex;
        if (features < 1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " has no features");
        }
        LibSvmFile svm = new LibSvmFile(file, features, classes, negative, starts.build(offset), widest);
        log.info(String.format(Locale.ROOT, "Indexed %s: %d examples of %d features, %d classes%s, in %.1f s", file,
                svm.size(), features, classes, negative ? " (labels -1/+1)" : "", (System.nanoTime() - began) / 1e9));
        return svm;
    }

    @Override
    public int size() {
        return lines.size();
    }

    @Override
    public int featureSize() {
        return features;
    }

    @Override
    public int numClasses() {
        return classes;
    }

    /** @return the most features a row of the file lists */
    public int widestRow() {
        return widest;
    }

    /** @return whether the labels are -1 / +1 (read as classes 0 and 1) */
    public boolean binary() {
        return binary;
    }

    /**
     * Reads the lines of {@code indices} from the file into dense rows.
     *
     * @throws PsException INVALID_ARGUMENT when the file changed since it was opened
     */
    @Override
    public LabeledData gather(int[] indices) {
        float[] x = new float[indices.length * features];
        float[] y = new float[indices.length * classes];
        lines.read(indices, (r, index, bytes, end, start) -> {
            Row row = reread(bytes, end);
            for (int k = 0; k < row.count(); k++) {
                x[r * features + row.indices()[k] - 1] = row.values()[k];
            }
            y[r * classes + classOf(row)] = 1f;
        });
        return new LabeledData(Nd4j.create(x, new long[]{indices.length, features}, DataType.FLOAT),
                Nd4j.create(y, new long[]{indices.length, classes}, DataType.FLOAT));
    }

    /**
     * Reads the lines of {@code indices} from the file as sparse rows, without spreading them: the
     * input of a model whose weights are a sparse table (one row per feature).
     *
     * @return the batch, rows in the order of {@code indices}, ids {@code index - 1}
     * @throws PsException INVALID_ARGUMENT when the file changed since it was opened
     */
    public SparseBatch gatherSparse(int[] indices) {
        Row[] rows = new Row[indices.length];
        lines.read(indices, (r, index, bytes, end, start) -> rows[r] = reread(bytes, end));
        int[] rowStarts = new int[indices.length + 1];
        for (int r = 0; r < rows.length; r++) {
            rowStarts[r + 1] = rowStarts[r] + rows[r].count();
        }
        long[] ids = new long[rowStarts[rows.length]];
        float[] values = new float[ids.length];
        int[] labels = new int[rows.length];
        for (int r = 0; r < rows.length; r++) {
            Row row = rows[r];
            for (int k = 0; k < row.count(); k++) {
                ids[rowStarts[r] + k] = row.indices()[k] - 1L;
                values[rowStarts[r] + k] = row.values()[k];
            }
            labels[r] = classOf(row);
        }
        return new SparseBatch(rowStarts, ids, values, labels);
    }

    /**
     * @return an indexed line parsed again
     * @throws PsException INVALID_ARGUMENT when it no longer holds an example (the file changed)
     */
    private Row reread(byte[] bytes, int end) {
        Row row = parse(bytes, end, features, file, -1);
        if (row == null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " changed while the job read it");
        }
        return row;
    }

    private int classOf(Row row) {
        return binary ? (row.label() < 0 ? 0 : 1) : row.label();
    }

    /** One parsed line: its label and features (indices from 1, increasing). */
    private record Row(int label, int[] indices, float[] values, int count) {
        int lastIndex() {
            return count == 0 ? 0 : indices[count - 1];
        }
    }

    /**
     * @param limit  the largest index allowed, 0 for any
     * @param number the line number for errors, or -1 when re-reading an indexed line
     * @return the row, or null for a blank or comment line
     */
    private static Row parse(byte[] bytes, int end, int limit, Path file, long number) {
        String text = new String(bytes, 0, end, StandardCharsets.US_ASCII);
        int comment = text.indexOf('#');
        if (comment >= 0) {
            text = text.substring(0, comment);
        }
        text = text.strip();
        if (text.isEmpty()) {
            return null;
        }
        String where = file + " line " + (number < 0 ? "?" : Long.toString(number)) + ": ";
        String[] tokens = text.split("[ \t]+");
        int label = label(tokens[0], where);
        int[] indices = new int[tokens.length - 1];
        float[] values = new float[tokens.length - 1];
        int previous = 0;
        for (int t = 1; t < tokens.length; t++) {
            String token = tokens[t];
            int colon = token.indexOf(':');
            if (colon <= 0 || colon == token.length() - 1) {
                throw bad(where + "feature '" + token + "' is not index:value");
            }
            int index;
            float value;
            try {
                index = Integer.parseInt(token, 0, colon, 10);
                value = Float.parseFloat(token.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw bad(where + "feature '" + token + "' is not index:value with a whole index and a number");
            }
            if (index < 1 || index <= previous) {
                throw bad(where + "feature index " + index + (index < 1 ? " is below 1 (indices start at 1)"
                        : " does not increase (after " + previous + ")"));
            }
            if (limit > 0 && index > limit) {
                throw bad(where + "feature index " + index + " is above the " + limit + " features given");
            }
            if (!Float.isFinite(value)) {
                throw bad(where + "feature " + index + " has value " + token.substring(colon + 1)
                        + ", not a finite number");
            }
            indices[t - 1] = index;
            values[t - 1] = value;
            previous = index;
        }
        return new Row(label, indices, values, tokens.length - 1);
    }

    private static int label(String token, String where) {
        String text = token.startsWith("+") ? token.substring(1) : token;
        try {
            double value = Double.parseDouble(text);
            if (value == -1) {
                return -1;
            }
            if (value >= 0 && value == Math.rint(value) && value < Integer.MAX_VALUE) {
                return (int) value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(where + "label '" + token + "' is not a class number (a whole number from 0, or -1/+1)");
    }

    private static PsException bad(String message) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
