package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The hashed tables {@link SameDiffTrainer#save} wrote beside a graph ({@link TableFiles}), put back into the loaded
 * graph for prediction: each table's variable becomes its rows {@code [n, dim]} plus one row of zeros, and the ids a
 * batch gives the table's placeholder become positions among the listed ids (an id the files do not list, never
 * trained, reads the zero row). A bounded table needs nothing: it is a variable of the saved graph. Immutable after
 * {@link #load}; {@link #positions} may be called from several threads.
 */
public final class SavedTables {
    private final Map<String, long[]> idsByPlaceholder;

    private SavedTables(Map<String, long[]> idsByPlaceholder) {
        this.idsByPlaceholder = Map.copyOf(idsByPlaceholder);
    }

    /**
     * Finds every {@code <table>.ids.npy} in {@code dir} whose table is a variable of {@code sd} and sets that
     * variable to the table's rows.
     *
     * @throws PsException INVALID_ARGUMENT when a table's files disagree (lengths, the row width against the
     *                     variable's) or its placeholder is read by another table too (positions fit one table)
     */
    public static SavedTables load(SameDiff sd, Path dir) {
        List<EmbeddingTable> hashed = new ArrayList<>();
        Map<String, long[]> idsOf = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.sorted().toList()) {
                String name = file.getFileName().toString();
                String table = name.endsWith(".ids.npy") ? name.substring(0, name.length() - ".ids.npy".length()) : null;
                if (table != null && sd.hasVariable(table) && Files.isRegularFile(TableFiles.rowsFile(dir, table))) {
                    idsOf.put(table, Nd4j.createFromNpyFile(file.toFile()).castTo(DataType.INT64).toLongVector());
                    hashed.add(EmbeddingTable.of(table));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the table files in " + dir, e);
        }
        if (hashed.isEmpty()) {
            return new SavedTables(Map.of());
        }
        GraphTables tables = GraphTables.check(sd, "saved model", hashed);
        Map<String, long[]> byPlaceholder = new LinkedHashMap<>();
        for (GraphTables.Table table : tables.list()) {
            long[] ids = idsOf.get(table.variable());
            INDArray rows = Nd4j.createFromNpyFile(TableFiles.rowsFile(dir, table.variable()).toFile());
            if (rows.rank() != 2 || rows.rows() != ids.length || rows.columns() != table.dim()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "table '" + table.variable() + "': "
                        + TableFiles.rowsFile(dir, table.variable()) + " holds " + Arrays.toString(rows.shape())
                        + "; its ids file lists " + ids.length + " ids and the graph's rows have " + table.dim()
                        + " values");
            }
            INDArray withZero = Nd4j.concat(0, rows.castTo(DataType.FLOAT), Nd4j.zeros(DataType.FLOAT, 1, table.dim()));
            sd.getVariable(table.variable()).setArray(withZero);
        }
        for (Map.Entry<String, List<String>> input : tables.idInputs().entrySet()) {
            long readers = sd.getVariables().get(input.getKey()).getInputsForOp().size();
            long lookups = tables.lookups().stream().filter(l -> l.ids().equals(input.getKey())).count();
            if (input.getValue().stream().distinct().count() > 1 || readers != lookups) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "placeholder '" + input.getKey() + "' feeds hashed "
                        + "table(s) " + input.getValue() + " and other ops; a hashed table's ids become positions "
                        + "among its saved rows, so give it a placeholder of its own");
            }
            byPlaceholder.put(input.getKey(), idsOf.get(input.getValue().get(0)));
        }
        return new SavedTables(byPlaceholder);
    }

    /** @return the placeholders whose ids are mapped, each read by one hashed table */
    public java.util.Set<String> placeholders() {
        return idsByPlaceholder.keySet();
    }

    /**
     * @param ids a batch's ids by placeholder
     * @return the same map with each hashed table's ids replaced by their rows' positions (int64, same shape)
     */
    public Map<String, INDArray> positions(Map<String, INDArray> ids) {
        Map<String, INDArray> out = new LinkedHashMap<>(ids);
        idsByPlaceholder.forEach((placeholder, listed) -> {
            INDArray given = ids.get(placeholder);
            if (given == null) {
                return;
            }
            long[] flat = given.castTo(DataType.INT64).reshape(-1).toLongVector();
            long[] at = new long[flat.length];
            for (int i = 0; i < flat.length; i++) {
                int found = Arrays.binarySearch(listed, flat[i]);
                at[i] = found >= 0 ? found : listed.length;
            }
            out.put(placeholder, Nd4j.createFromArray(at).reshape(given.shape()));
        });
        return out;
    }
}
