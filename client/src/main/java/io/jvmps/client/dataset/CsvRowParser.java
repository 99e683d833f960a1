package io.jvmps.client.dataset;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses one CSV line, given as bytes without its line break, into features and a label: every
 * column but the label column is a finite number, the label a class number. Whole numbers take a fast
 * path (exactly {@code Float.parseFloat}'s value); anything else goes through {@code Float.parseFloat}.
 * A cell may be wrapped in double quotes and surrounded by blanks. Immutable and thread-safe.
 */
final class CsvRowParser {
    private final byte delimiter;
    private final int columns;
    private final int labelColumn;
    private final int numClasses;
    private final List<String> names;

    /**
     * @param delimiter   the column separator, an ASCII character
     * @param columns     columns every row must have
     * @param labelColumn the label's column
     * @param numClasses  labels must be below this; 0 = any class number
     * @param names       the header's column names, or null without a header: a bad cell is named as
     *                    {@code column 3 (all)}, counted from 1 as editors and spreadsheets count
     */
    CsvRowParser(char delimiter, int columns, int labelColumn, int numClasses, List<String> names) {
        this.names = names == null ? null : List.copyOf(names);
        this.delimiter = (byte) delimiter;
        this.columns = columns;
        this.labelColumn = labelColumn;
        this.numClasses = numClasses;
    }

    /** A row that does not parse; the message says what is wrong, the caller says where. */
    static final class BadRow extends Exception {
        BadRow(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param line      the bytes of the line
     * @param start     first byte of the line
     * @param end       end of the line, exclusive, without the line break
     * @param features  receives {@code columns - 1} values from {@code offset}
     * @param offset    where the row's features start in {@code features}
     * @return the label
     * @throws BadRow for a wrong column count, a cell that is no finite number, or a bad label
     */
    int parse(byte[] line, int start, int end, float[] features, int offset) throws BadRow {
        int label = -1;
        int column = 0;
        int out = offset;
        int cellStart = start;
        for (int i = start; i <= end; i++) {
            if (i < end && line[i] != delimiter) {
                continue;
            }
            if (column >= columns) {
                throw new BadRow("expected " + columns + " columns, found " + count(line, start, end));
            }
            if (column == labelColumn) {
                label = label(line, cellStart, i);
            } else {
                features[out++] = number(line, cellStart, i, column);
            }
            column++;
            cellStart = i + 1;
        }
        if (column != columns) {
            throw new BadRow("expected " + columns + " columns, found " + column);
        }
        return label;
    }

    /** @return the cells of a line as text (a header), unquoted and trimmed */
    static List<String> cells(byte[] line, int start, int end, char delimiter) {
        List<String> cells = new ArrayList<>();
        int cellStart = start;
        for (int i = start; i <= end; i++) {
            if (i == end || line[i] == (byte) delimiter) {
                cells.add(text(line, cellStart, i));
                cellStart = i + 1;
            }
        }
        return cells;
    }

    private int count(byte[] line, int start, int end) {
        int n = 1;
        for (int i = start; i < end; i++) {
            if (line[i] == delimiter) {
                n++;
            }
        }
        return n;
    }

    private int label(byte[] line, int from, int to) throws BadRow {
        long whole = whole(line, from, to);
        double value;
        if (whole != Long.MIN_VALUE) {
            value = whole;
        } else {
            String cell = text(line, from, to);
            try {
                value = Double.parseDouble(cell);
            } catch (NumberFormatException e) {
                throw new BadRow("label '" + cell + "' is not a number");
            }
        }
        if (value != Math.rint(value) || value < 0 || value > Integer.MAX_VALUE - 1) {
            throw new BadRow("label '" + text(line, from, to) + "' is not a class number (a whole number from 0)");
        }
        if (numClasses > 0 && value >= numClasses) {
            throw new BadRow("label " + (long) value + " is outside the " + numClasses + " classes [0, " + numClasses
                    + ") of the training data (ps.worker.dataset.num-classes)");
        }
        return (int) value;
    }

    /** @return how a message names a column: its place counted from 1, and its header name */
    private String columnName(int column) {
        return "column " + (column + 1) + (names != null && column < names.size() ? " (" + names.get(column) + ")" : "");
    }

    private float number(byte[] line, int from, int to, int column) throws BadRow {
        long whole = whole(line, from, to);
        if (whole != Long.MIN_VALUE) {
            return (float) whole;
        }
        String cell = text(line, from, to);
        float value;
        try {
            value = Float.parseFloat(cell);
        } catch (NumberFormatException e) {
            throw new BadRow(columnName(column) + " '" + cell + "' is not a number");
        }
        if (!Float.isFinite(value)) {
            throw new BadRow(columnName(column) + " '" + cell + "' is not a finite number");
        }
        return value;
    }

    /** @return the cell as a whole number of at most 9 digits (with an optional '-'), or Long.MIN_VALUE */
    private static long whole(byte[] line, int from, int to) {
        int s = from;
        int e = to;
        while (s < e && (line[s] == ' ' || line[s] == '\t')) {
            s++;
        }
        while (e > s && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) {
            e--;
        }
        boolean negative = s < e && line[s] == '-';
        if (negative) {
            s++;
        }
        if (s == e || e - s > 9) {
            return Long.MIN_VALUE;
        }
        long value = 0;
        for (int i = s; i < e; i++) {
            int digit = line[i] - '0';
            if (digit < 0 || digit > 9) {
                return Long.MIN_VALUE;
            }
            value = value * 10 + digit;
        }
        if (negative && value == 0) {
            return Long.MIN_VALUE; // "-0": parseFloat keeps the sign
        }
        return negative ? -value : value;
    }

    private static String text(byte[] line, int from, int to) {
        String cell = new String(line, from, to - from, StandardCharsets.UTF_8).trim();
        return cell.length() >= 2 && cell.charAt(0) == '"' && cell.charAt(cell.length() - 1) == '"'
                ? cell.substring(1, cell.length() - 1).trim() : cell;
    }
}
