package io.jvmps.worker.predict;

import io.jvmps.client.dataset.ColumnKind;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.LabelKind;

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
        try {
            out = out.withColumns(columns);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--csv.columns: " + e.getMessage());
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
