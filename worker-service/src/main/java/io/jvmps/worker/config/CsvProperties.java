package io.jvmps.worker.config;

import io.jvmps.client.dataset.CsvFormat;
import jakarta.validation.constraints.NotBlank;

/**
 * How CSV data files are read ({@code ps.worker.csv.*}, with {@code ps.worker.data=CSV}): every other
 * column is a feature.
 */
public class CsvProperties {
    /** The label column: a 0-based index, or a header name (needs {@code header=true}). */
    @NotBlank
    private String label = "0";
    /** Whether the first line holds column names. */
    private boolean header = true;
    /** The column separator, one character. */
    @NotBlank
    private String delimiter = ",";
    /** Leave bad data rows out (logged, counted in ps.worker.data.rows.skipped) instead of stopping. */
    private boolean skipBadRows = false;

    /** @return the format these properties describe */
    public CsvFormat format() {
        return CsvFormat.of(label, header, delimiter, skipBadRows);
    }

    public String getLabel() {
        return label;
    }

    public void setLabel(String label) {
        this.label = label;
    }

    public boolean isHeader() {
        return header;
    }

    public void setHeader(boolean header) {
        this.header = header;
    }

    public boolean isSkipBadRows() {
        return skipBadRows;
    }

    public void setSkipBadRows(boolean skipBadRows) {
        this.skipBadRows = skipBadRows;
    }

    public String getDelimiter() {
        return delimiter;
    }

    public void setDelimiter(String delimiter) {
        this.delimiter = delimiter;
    }
}
