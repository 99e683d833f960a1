package io.jvmps.client.dataset;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses one CSV line, given as bytes without its line break, into a {@link Row}: the label (a class number, a
 * 0/1 click or a real number), the number columns as features, and each id column's ids (a whole number, or a
 * text hashed with the column's name, {@link CsvIds}; one per cell, or several split by the value separator).
 * Whole numbers take a fast path (exactly {@code Float.parseFloat}'s value); anything else goes through
 * {@code Float.parseFloat}. A cell may be wrapped in double quotes and surrounded by blanks. Immutable and
 * thread-safe; each caller has its own {@link Row}.
 */
final class CsvRowParser {
    private static final int MAX_VALUES = 4096;

    private final byte delimiter;
    private final byte separator;
    private final int columns;
    private final int labelColumn;
    private final int numClasses;
    private final LabelKind labelKind;
    private final ColumnKind[] kinds;
    private final long[] seeds;
    private final int[] slot;
    private final boolean blankIsZero;
    private final List<String> names;
    private final int features;
    private final List<String> idColumns = new ArrayList<>();
    private final List<String> multiColumns = new ArrayList<>();

    /**
     * A parsed row, reused from row to row by one caller.
     *
     * @see #newRow()
     */
    static final class Row {
        final float[] features;
        double label;
        final long[] ids;
        final long[][] multi;
        final int[] multiCount;

        Row(int features, int ids, int multis) {
            this.features = new float[features];
            this.ids = new long[ids];
            this.multi = new long[multis][8];
            this.multiCount = new int[multis];
        }
    }

    /**
     * @param delimiter   the column separator, an ASCII character
     * @param columns     columns every row must have
     * @param labelColumn the label's column
     * @param numClasses  class labels must be below this; 0 = any class number
     * @param names       the columns' names, or null: a bad cell is named as {@code column 3 (all)}, counted
     *                    from 1 as editors and spreadsheets count
     * @param kinds       each column's kind (the label's ignored), or null for numbers everywhere
     * @param separator   what splits a multi-valued cell
     * @param blankIsZero whether a blank number reads as 0
     */
    CsvRowParser(char delimiter, int columns, int labelColumn, int numClasses, List<String> names,
                 LabelKind labelKind, ColumnKind[] kinds, char separator, boolean blankIsZero) {
        this.names = names == null ? null : List.copyOf(names);
        this.delimiter = (byte) delimiter;
        this.separator = (byte) separator;
        this.columns = columns;
        this.labelColumn = labelColumn;
        this.numClasses = numClasses;
        this.labelKind = labelKind;
        this.blankIsZero = blankIsZero;
        this.kinds = new ColumnKind[columns];
        this.seeds = new long[columns];
        this.slot = new int[columns];
        int numbers = 0;
        for (int c = 0; c < columns; c++) {
            ColumnKind kind = c == labelColumn ? null : kinds == null ? ColumnKind.NUMBER : kinds[c];
            this.kinds[c] = kind;
            if (kind == null) {
                continue;
            }
            seeds[c] = CsvIds.seed(idName(c));
            switch (kind) {
                case NUMBER -> slot[c] = numbers++;
                case ID, HASHED -> {
                    slot[c] = idColumns.size();
                    idColumns.add(idName(c));
                }
                case IDS, HASHED_IDS -> {
                    slot[c] = multiColumns.size();
                    multiColumns.add(idName(c));
                }
                case SKIP -> slot[c] = -1;
                default -> throw new IllegalStateException("unknown column kind " + kind);
            }
        }
        this.features = numbers;
    }

    /** @return a row to parse into */
    Row newRow() {
        return new Row(features, idColumns.size(), multiColumns.size());
    }

    /** @return number columns (features per example) */
    int features() {
        return features;
    }

    /** @return the names of the single-id columns, in column order */
    List<String> idColumns() {
        return idColumns;
    }

    /** @return the names of the multi-valued id columns, in column order */
    List<String> multiColumns() {
        return multiColumns;
    }

    /** @return what a column's ids are keyed by: its name, or its 0-based index without names */
    private String idName(int column) {
        return names != null && column < names.size() ? names.get(column) : Integer.toString(column);
    }

    /** A row that does not parse; the message says what is wrong, the caller says where. */
    static final class BadRow extends Exception {
        BadRow(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * @param line  the bytes of the line
     * @param start first byte of the line
     * @param end   end of the line, exclusive, without the line break
     * @param row   receives the label, features and ids
     * @throws BadRow for a wrong column count, a cell that is no finite number or no id, or a bad label
     */
    void parse(byte[] line, int start, int end, Row row) throws BadRow {
        int column = 0;
        int cellStart = start;
        for (int i = start; i <= end; i++) {
            if (i < end && line[i] != delimiter) {
                continue;
            }
            if (column >= columns) {
                throw new BadRow("expected " + columns + " columns, found " + count(line, start, end));
            }
            ColumnKind kind = kinds[column];
            if (kind == null) {
                row.label = label(line, cellStart, i);
            } else {
                switch (kind) {
                    case NUMBER -> row.features[slot[column]] = number(line, cellStart, i, column);
                    case ID -> row.ids[slot[column]] = id(line, cellStart, i, column);
                    case HASHED -> row.ids[slot[column]] = hashed(line, cellStart, i, column);
                    case IDS, HASHED_IDS -> values(line, cellStart, i, column, kind == ColumnKind.HASHED_IDS, row);
                    default -> { }
                }
            }
            column++;
            cellStart = i + 1;
        }
        if (column != columns) {
            throw new BadRow("expected " + columns + " columns, found " + column);
        }
    }

    private long id(byte[] line, int from, int to, int column) throws BadRow {
        String cell = text(line, from, to);
        try {
            return Long.parseLong(cell);
        } catch (NumberFormatException e) {
            throw new BadRow(columnName(column) + " '" + cell + "' is not a whole-number id (declare the column "
                    + "HASHED for text)");
        }
    }

    private long hashed(byte[] line, int from, int to, int column) {
        int s = blankEnd(line, from, to);
        int e = contentEnd(line, s, to);
        if (e - s >= 2 && line[s] == '"' && line[e - 1] == '"') {
            s++;
            e--;
        }
        return CsvIds.hash(seeds[column], line, s, e);
    }

    private void values(byte[] line, int from, int to, int column, boolean hashed, Row row) throws BadRow {
        int[] bounds = trimmed(line, from, to);
        int m = slot[column];
        row.multiCount[m] = 0;
        if (bounds[0] == bounds[1]) {
            return; // no values
        }
        int valueStart = bounds[0];
        for (int i = bounds[0]; i <= bounds[1]; i++) {
            if (i < bounds[1] && line[i] != separator) {
                continue;
            }
            long value = hashed ? hashed(line, valueStart, i, column) : id(line, valueStart, i, column);
            if (row.multiCount[m] == MAX_VALUES) {
                throw new BadRow(columnName(column) + " has more than " + MAX_VALUES + " values");
            }
            if (row.multiCount[m] == row.multi[m].length) {
                row.multi[m] = java.util.Arrays.copyOf(row.multi[m], row.multi[m].length * 2);
            }
            row.multi[m][row.multiCount[m]++] = value;
            valueStart = i + 1;
        }
    }

    /** @return the first index in {@code [from, to)} that is no blank or tab, or {@code to} */
    private static int blankEnd(byte[] line, int from, int to) {
        int s = from;
        while (s < to && (line[s] == ' ' || line[s] == '\t')) {
            s++;
        }
        return s;
    }

    /** @return the end of {@code [from, to)} without trailing blanks, tabs and a carriage return */
    private static int contentEnd(byte[] line, int from, int to) {
        int e = to;
        while (e > from && (line[e - 1] == ' ' || line[e - 1] == '\t' || line[e - 1] == '\r')) {
            e--;
        }
        return e;
    }

    /** @return {@code [from, to)} without blanks and one pair of surrounding quotes */
    private static int[] trimmed(byte[] line, int from, int to) {
        int s = blankEnd(line, from, to);
        int e = contentEnd(line, s, to);
        if (e - s >= 2 && line[s] == '"' && line[e - 1] == '"') {
            s++;
            e--;
        }
        return new int[] {s, e};
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

    private double label(byte[] line, int from, int to) throws BadRow {
        if (labelKind == LabelKind.REAL) {
            String cell = text(line, from, to);
            double value;
            try {
                value = Double.parseDouble(cell);
            } catch (NumberFormatException e) {
                throw new BadRow("label '" + cell + "' is not a number");
            }
            if (!Double.isFinite(value)) {
                throw new BadRow("label '" + cell + "' is not a finite number");
            }
            return value;
        }
        if (labelKind == LabelKind.BINARY) {
            long click = whole(line, from, to);
            if (click != 0 && click != 1) {
                throw new BadRow("label '" + text(line, from, to) + "' is not a click (0 or 1)");
            }
            return click;
        }
        return classLabel(line, from, to);
    }

    private int classLabel(byte[] line, int from, int to) throws BadRow {
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
        if (from == to && blankIsZero) {
            return 0f; // an empty cell, as most of Criteo's missing counts are
        }
        long whole = whole(line, from, to);
        if (whole != Long.MIN_VALUE) {
            return (float) whole;
        }
        String cell = text(line, from, to);
        if (blankIsZero && cell.isEmpty()) {
            return 0f;
        }
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
        int s = blankEnd(line, from, to);
        int e = contentEnd(line, s, to);
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
