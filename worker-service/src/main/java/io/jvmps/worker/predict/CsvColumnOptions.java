package io.jvmps.worker.predict;

import io.jvmps.client.dataset.ColumnKind;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;

import java.util.Arrays;
import java.util.Locale;

/**
 * {@code predict}'s CSV options beyond the label and the separator: {@code --csv.columns=NAME:KIND,...} (what each
 * column holds, {@link ColumnKind}), {@code --csv.value-separator} (inside a multi-valued cell) and the label's kind
 * from the task (a class, a real target, a click). Stateless.
 */
final class CsvColumnOptions {
    private CsvColumnOptions() {
    }

    /**
     * @return {@code csv} with the columns' kinds, the value separator and the task's label kind
     * @throws IllegalArgumentException naming an entry that is not {@code NAME:KIND} or a kind that does not exist
     */
    static CsvFormat apply(CsvFormat csv, String columns, String valueSeparator, PredictionScores.Task task) {
        CsvFormat out = csv.withLabel(switch (task) {
            case CLASSIFICATION -> LabelKind.CLASS;
            case REGRESSION -> LabelKind.REAL;
            case BINARY -> LabelKind.BINARY;
        });
        if (columns != null && !columns.isBlank()) {
            for (String entry : columns.split(",")) {
                int colon = entry.lastIndexOf(':');
                if (colon <= 0 || colon == entry.length() - 1) {
                    throw new IllegalArgumentException("--csv.columns entry '" + entry.strip() + "' is not NAME:KIND");
                }
                String kind = entry.substring(colon + 1).strip().toUpperCase(Locale.ROOT);
                try {
                    out = out.withColumn(entry.substring(0, colon).strip(), ColumnKind.valueOf(kind));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--csv.columns entry '" + entry.strip() + "': " + kind
                            + " is not one of " + Arrays.toString(ColumnKind.values()));
                }
            }
        }
        if (valueSeparator != null) {
            if (valueSeparator.length() != 1) {
                throw new IllegalArgumentException("--csv.value-separator must be one character, got '"
                        + valueSeparator + "'");
            }
            out = out.withValueSeparator(valueSeparator.charAt(0));
        }
        return out;
    }
}
