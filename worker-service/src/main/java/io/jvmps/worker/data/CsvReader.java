package io.jvmps.worker.data;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a CSV file of labelled examples into a {@link LabeledData}: one example per line, the label
 * column a class number (a whole number from 0), every other column a finite number. Blank lines are
 * skipped; a cell may be quoted. A bad line stops the read with an error that names the file, the
 * line and what was wrong, never a silent zero. Stateless.
 */
public final class CsvReader {
    private CsvReader() {
    }

    /**
     * @param file       the CSV file
     * @param format     its layout
     * @param numClasses classes of the labels, or 0 to take the largest label + 1 (at least 2)
     * @return features {@code [n, columns - 1]} and one-hot labels {@code [n, classes]}, float32
     * @throws PsException INVALID_ARGUMENT for a missing file, an unknown label column, a row with another
     *                     number of columns, a cell that is not a finite number, a label that is not a class
     *                     number below {@code numClasses}, or a file without data rows
     */
    public static LabeledData read(Path file, CsvFormat format, int numClasses) {
        if (!Files.isRegularFile(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "no CSV file at " + file.toAbsolutePath());
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(in, file, format, numClasses);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static LabeledData parse(BufferedReader in, Path file, CsvFormat format, int numClasses)
            throws IOException {
        int columns = -1;
        int labelColumn = format.labelIndex();
        FloatList features = new FloatList();
        List<Integer> labels = new ArrayList<>();
        int maxLabel = -1;
        long lineNo = 0;
        boolean headerPending = format.header();
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] cells = split(line, format.delimiter());
            if (headerPending) {
                headerPending = false;
                columns = cells.length;
                labelColumn = labelColumn(file, lineNo, format, cells);
                continue;
            }
            if (columns < 0) {
                columns = cells.length;
                if (labelColumn >= columns) {
                    throw bad(file, lineNo, "ps.worker.csv.label=" + format.label() + " but the line has only "
                            + columns + " columns");
                }
            }
            if (cells.length != columns) {
                throw bad(file, lineNo, "expected " + columns + " columns, found " + cells.length);
            }
            if (columns < 2) {
                throw bad(file, lineNo, "a row needs a label and at least one feature, found " + columns + " column");
            }
            int label = label(file, lineNo, cells[labelColumn], numClasses);
            for (int c = 0; c < columns; c++) {
                if (c != labelColumn) {
                    features.add(number(file, lineNo, c, cells[c]));
                }
            }
            labels.add(label);
            maxLabel = Math.max(maxLabel, label);
        }
        int n = labels.size();
        if (n == 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + " has no data rows");
        }
        int classes = numClasses > 0 ? numClasses : maxLabel + 1;
        if (classes < 2) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, file + ": every label is 0; a classifier needs at "
                    + "least 2 classes (set ps.worker.num-classes if this file lacks some)");
        }
        float[] oneHot = new float[n * classes];
        for (int i = 0; i < n; i++) {
            oneHot[i * classes + labels.get(i)] = 1f;
        }
        int width = columns - 1;
        return new LabeledData(Nd4j.create(features.toArray(), new long[]{n, width}, DataType.FLOAT),
                Nd4j.create(oneHot, new long[]{n, classes}, DataType.FLOAT));
    }

    private static int labelColumn(Path file, long lineNo, CsvFormat format, String[] header) {
        int index = format.labelIndex();
        if (index >= 0) {
            if (index >= header.length) {
                throw bad(file, lineNo, "ps.worker.csv.label=" + index + " but the header has only " + header.length
                        + " columns");
            }
            return index;
        }
        for (int c = 0; c < header.length; c++) {
            if (header[c].equals(format.label())) {
                return c;
            }
        }
        throw bad(file, lineNo, "no column named '" + format.label() + "' (ps.worker.csv.label) in the header "
                + Arrays.toString(header.length > 12 ? Arrays.copyOf(header, 12) : header)
                + (header.length > 12 ? " and " + (header.length - 12) + " more" : ""));
    }

    private static int label(Path file, long lineNo, String cell, int numClasses) {
        double value;
        try {
            value = Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            throw bad(file, lineNo, "label '" + cell + "' is not a number");
        }
        if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE - 1) {
            throw bad(file, lineNo, "label '" + cell + "' is not a class number (a whole number from 0)");
        }
        if (numClasses > 0 && value >= numClasses) {
            throw bad(file, lineNo, "label " + (long) value + " is outside the " + numClasses + " classes [0, "
                    + numClasses + ") of the training data (ps.worker.num-classes)");
        }
        return (int) value;
    }

    private static float number(Path file, long lineNo, int column, String cell) {
        float value;
        try {
            value = Float.parseFloat(cell);
        } catch (NumberFormatException e) {
            throw bad(file, lineNo, "column " + column + " '" + cell + "' is not a number");
        }
        if (!Float.isFinite(value)) {
            throw bad(file, lineNo, "column " + column + " '" + cell + "' is not a finite number");
        }
        return value;
    }

    private static String[] split(String line, char delimiter) {
        List<String> cells = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == delimiter) {
                cells.add(unquote(line.substring(start, i).trim()));
                start = i + 1;
            }
        }
        return cells.toArray(String[]::new);
    }

    private static String unquote(String cell) {
        return cell.length() >= 2 && cell.charAt(0) == '"' && cell.charAt(cell.length() - 1) == '"'
                ? cell.substring(1, cell.length() - 1) : cell;
    }

    private static PsException bad(Path file, long lineNo, String what) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, file + " line " + lineNo + ": " + what);
    }

    /** A growable float array. */
    private static final class FloatList {
        private float[] values = new float[1024];
        private int size;

        void add(float value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = value;
        }

        float[] toArray() {
            return size == values.length ? values : Arrays.copyOf(values, size);
        }
    }
}
