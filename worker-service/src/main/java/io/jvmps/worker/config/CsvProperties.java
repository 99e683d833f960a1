package io.jvmps.worker.config;

import io.jvmps.client.dataset.CsvFormat;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How CSV data files are read ({@code ps.worker.dataset.csv.*}, with {@code ps.worker.dataset.format=CSV}):
 * every other column is a feature.
 *
 * @param label the label column: a 0-based index, or a header name (needs {@code header=true})
 * @param header whether the first line holds column names
 * @param delimiter the column separator, one character
 * @param skipBadRows leave bad data rows out (logged, counted in ps.worker.data.rows.skipped) instead of stopping
 */
public record CsvProperties(
        @NotBlank @DefaultValue("0") String label,
        @DefaultValue("true") boolean header,
        @NotBlank @DefaultValue(",") String delimiter,
        @DefaultValue("false") boolean skipBadRows) {

    /** @return the format these properties describe */
    public CsvFormat format() {
        return CsvFormat.of(label, header, delimiter, skipBadRows);
    }
}
