package io.jvmps.worker.config;

import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How CSV data files are read ({@code ps.worker.dataset.csv.*}, with {@code ps.worker.dataset.format=CSV}):
 * every column is a number feature unless {@code columns} gives it another kind.
 *
 * @param label the label column: a 0-based index, or a header name (needs {@code header=true})
 * @param header whether the first line holds column names
 * @param delimiter the column separator, one character
 * @param skipBadRows leave bad data rows out (logged, counted in ps.worker.data.rows.skipped) instead of stopping
 * @param labelKind what the label holds: CLASS (a class number: accuracy), BINARY (a click, 0 or 1: AUC and log
 *     loss) or REAL (a rating, a price: RMSE and MAE); BINARY and REAL train a model file through the library trainer
 * @param columns the kinds of the columns that are not number features, {@code NAME:KIND,...} with KIND one of
 *     NUMBER, ID (a whole-number id), HASHED (any text, hashed per column), IDS and HASHED_IDS (several, split at
 *     value-separator), SKIP; ids feed a model file's same-named integer placeholders
 * @param valueSeparator what splits the values of an IDS or HASHED_IDS cell, one character
 */
public record CsvProperties(
        @NotBlank @DefaultValue("0") String label,
        @DefaultValue("true") boolean header,
        @NotBlank @DefaultValue(",") String delimiter,
        @DefaultValue("false") boolean skipBadRows,
        @NotNull @DefaultValue("CLASS") LabelKind labelKind,
        @NotNull @DefaultValue("") String columns,
        @NotNull @DefaultValue("|") String valueSeparator) {

    /**
     * @return the format these properties describe
     * @throws PsException INVALID_ARGUMENT naming the property that cannot be read
     */
    public CsvFormat format() {
        CsvFormat format = CsvFormat.of(label, header, delimiter, skipBadRows).withLabel(labelKind);
        try {
            format = format.withColumns(columns);
        } catch (IllegalArgumentException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.csv.columns: " + e.getMessage());
        }
        if (valueSeparator.length() != 1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.csv.value-separator must be one "
                    + "character, got '" + valueSeparator + "'");
        }
        return format.withValueSeparator(valueSeparator.charAt(0));
    }
}
