package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * How a CSV file of examples is laid out: which column is the label, whether the first line names
 * the columns, and the separator. Every other column is a feature. Immutable.
 *
 * @param label       the label column: a 0-based index, or a column name from the header
 * @param header      whether the first line holds column names
 * @param delimiter   the column separator
 * @param skipBadRows leave bad data rows out (counted) instead of refusing the file
 */
public record CsvFormat(String label, boolean header, char delimiter, boolean skipBadRows) {

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
        return new CsvFormat(trimmed, header, delimiter.charAt(0), skipBadRows);
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
