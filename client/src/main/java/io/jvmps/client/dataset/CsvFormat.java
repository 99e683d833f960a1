package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a CSV file of examples is laid out: which column is the label and what it holds, whether the first line
 * names the columns, the separator, and what the other columns hold (a number unless {@link #columns} says
 * otherwise: an id, a hashed category, several of either, or nothing to read). Immutable.
 *
 * @param label          the label column: a 0-based index, or a column name
 * @param header         whether the first line holds column names
 * @param delimiter      the column separator
 * @param skipBadRows    leave bad data rows out (counted) instead of refusing the file
 * @param labelKind      what the label holds
 * @param columns        the kind of each column that is not a number, by name or 0-based index
 * @param valueSeparator what splits the values of an {@link ColumnKind#IDS} or {@link ColumnKind#HASHED_IDS} cell
 * @param blankIsZero    whether a blank number cell reads as 0 (a missing value) instead of a bad row
 * @param names          the columns' names for a file without a header (empty: columns are named by their
 *                       0-based index)
 */
public record CsvFormat(String label, boolean header, char delimiter, boolean skipBadRows, LabelKind labelKind,
                        Map<String, ColumnKind> columns, char valueSeparator, boolean blankIsZero,
                        List<String> names) {

    /** Copies the maps and lists. */
    public CsvFormat {
        columns = Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        names = List.copyOf(names);
        if (columns.containsKey(label)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "column '" + label + "' is the label; it has no other kind");
        }
    }

    /**
     * The Criteo display-advertising layout (the format CTR benchmarks use): tab-separated, no header, a click
     * label, 13 integer features {@code i1..i13} (blank = 0) and 26 hexadecimal categorical features
     * {@code c1..c26}, hashed per column (blank = the column's id of the empty text).
     */
    public static CsvFormat criteo() {
        List<String> names = new java.util.ArrayList<>();
        names.add("label");
        Map<String, ColumnKind> kinds = new LinkedHashMap<>();
        for (int i = 1; i <= 13; i++) {
            names.add("i" + i);
        }
        for (int c = 1; c <= 26; c++) {
            names.add("c" + c);
            kinds.put("c" + c, ColumnKind.HASHED);
        }
        return new CsvFormat("label", false, '\t', false, LabelKind.BINARY, kinds, '|', true, names);
    }

    /** @return the same layout with the label read as {@code kind} */
    public CsvFormat withLabel(LabelKind kind) {
        return new CsvFormat(label, header, delimiter, skipBadRows, kind, columns, valueSeparator, blankIsZero, names);
    }

    /**
     * @param column a column's name or 0-based index
     * @return the same layout with that column read as {@code kind}
     */
    public CsvFormat withColumn(String column, ColumnKind kind) {
        Map<String, ColumnKind> more = new LinkedHashMap<>(columns);
        more.put(column, kind);
        return new CsvFormat(label, header, delimiter, skipBadRows, labelKind, more, valueSeparator, blankIsZero,
                names);
    }

    /**
     * The columns' kinds written as text, as a configuration file or a command line gives them.
     *
     * @param spec {@code NAME:KIND,NAME:KIND,...} ({@link ColumnKind}, any case; a name may be a 0-based index);
     *             blank: no change
     * @return the same layout with each named column read as its kind
     * @throws IllegalArgumentException naming the entry that is not {@code NAME:KIND} or whose kind does not exist
     */
    public CsvFormat withColumns(String spec) {
        CsvFormat out = this;
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String entry : spec.split(",")) {
            int colon = entry.lastIndexOf(':');
            if (colon <= 0 || colon == entry.length() - 1 || entry.substring(0, colon).isBlank()) {
                throw new IllegalArgumentException("column entry '" + entry.strip() + "' is not NAME:KIND");
            }
            String kind = entry.substring(colon + 1).strip().toUpperCase(java.util.Locale.ROOT);
            ColumnKind parsed;
            try {
                parsed = ColumnKind.valueOf(kind);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column entry '" + entry.strip() + "': " + kind + " is not one of "
                        + java.util.Arrays.toString(ColumnKind.values()));
            }
            out = out.withColumn(entry.substring(0, colon).strip(), parsed);
        }
        return out;
    }

    /** @return the same layout with {@code separator} splitting multi-valued cells */
    public CsvFormat withValueSeparator(char separator) {
        return new CsvFormat(label, header, delimiter, skipBadRows, labelKind, columns, separator, blankIsZero, names);
    }

    /** @return the same layout with a blank number cell reading as 0 */
    public CsvFormat withBlankAsZero() {
        return new CsvFormat(label, header, delimiter, skipBadRows, labelKind, columns, valueSeparator, true, names);
    }

    /** @return the same layout with bad rows left out (counted) instead of refusing the file */
    public CsvFormat skippingBadRows() {
        return new CsvFormat(label, header, delimiter, true, labelKind, columns, valueSeparator, blankIsZero, names);
    }

    /**
     * @return the format
     * @throws PsException INVALID_ARGUMENT naming {@code ps.worker.dataset.csv.*} for a delimiter that is not one
     *                     character, or a label given by name without a header
     */
    public static CsvFormat of(String label, boolean header, String delimiter) {
        return of(label, header, delimiter, false);
    }

    /**
     * @param skipBadRows leave bad data rows out instead of refusing the file
     * @return the format
     * @throws PsException as {@link #of(String, boolean, String)}
     */
    public static CsvFormat of(String label, boolean header, String delimiter, boolean skipBadRows) {
        if (delimiter == null || delimiter.length() != 1 || delimiter.charAt(0) > 127 || delimiter.charAt(0) == '"'
                || delimiter.charAt(0) == '\n') {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.csv.delimiter must be one ASCII character "
                    + "other than a quote or a line break, got '" + delimiter + "'");
        }
        String trimmed = label == null ? "" : label.trim();
        if (trimmed.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.csv.label must name the label column (an "
                    + "index from 0 or a header name)");
        }
        if (labelIndex(trimmed) < 0 && !header) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.csv.label='" + trimmed + "' is a column name, "
                    + "but ps.worker.dataset.csv.header=false: give the label column's index (0 is the first column)");
        }
        return new CsvFormat(trimmed, header, delimiter.charAt(0), skipBadRows, LabelKind.CLASS, Map.of(), '|', false,
                List.of());
    }

    /** @return each column's kind, the label column marked null, for a file of {@code names.size()} columns */
    ColumnKind[] kinds(List<String> columnNames) {
        ColumnKind[] out = new ColumnKind[columnNames.size()];
        java.util.Arrays.fill(out, ColumnKind.NUMBER);
        for (Map.Entry<String, ColumnKind> e : columns.entrySet()) {
            int at = labelIndex(e.getKey()) >= 0 ? labelIndex(e.getKey()) : columnNames.indexOf(e.getKey());
            if (at < 0 || at >= out.length) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "no column '" + e.getKey() + "' to read as "
                        + e.getValue() + "; the file's columns: " + (columnNames.size() > 12
                        ? columnNames.subList(0, 12) + " and " + (columnNames.size() - 12) + " more" : columnNames));
            }
            out[at] = e.getValue();
        }
        return out;
    }

    /** @return the label column's index if {@link #label} is a number, else -1 (it is a header name) */
    int labelIndex() {
        return labelIndex(label);
    }

    private static int labelIndex(String label) {
        if (!label.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        try {
            return Integer.parseInt(label);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }
}
