package io.jvmps.worker.model;

import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.nio.file.Path;
import java.util.List;

/**
 * A model file the client library's trainer ({@link io.jvmps.client.train.SameDiffTrainer}) trains for the stock
 * worker, as it trains a user's own program: a SameDiff graph with embedding tables on the servers
 * ({@code ps.worker.graph.tables}), or one whose label is a click or a real number. Loaded and checked once at
 * start-up, so a bad file or table stops the worker before it registers. Each call of {@link #graph} reads the file
 * again, so a retried job starts from the file's values. Thread-safe.
 */
public final class LibraryGraph implements ModelProvider {
    private final Path file;
    private final GraphNames names;
    private final List<EmbeddingTable> tables;
    private final List<io.jvmps.common.sharding.ParamSpec> params;
    private final List<String> idInputs;
    private final int labelWidth;

    private LibraryGraph(Path file, GraphNames names, List<EmbeddingTable> tables, SameDiffGraph first) {
        this.file = file;
        this.names = names;
        this.tables = List.copyOf(tables);
        this.params = first.params();
        this.idInputs = List.copyOf(first.tables().idInputs().keySet());
        this.labelWidth = first.numClasses();
    }

    /** @return the id placeholders the graph's tables are looked up with, as named in the file */
    public List<String> idInputs() {
        return idInputs;
    }

    /** @return the width of the label placeholder: 1 for a click or a real number, else the classes */
    public int labelWidth() {
        return labelWidth;
    }

    /**
     * @param file   a SameDiff model file ({@code ps.worker.model})
     * @param names  its placeholders and outputs ({@code ps.worker.graph.*})
     * @param tables its embedding tables
     * @return the model
     * @throws PsException INVALID_ARGUMENT naming what is wrong with the file, a table or a variable
     */
    public static LibraryGraph load(Path file, GraphNames names, List<EmbeddingTable> tables) {
        return new LibraryGraph(file, names, tables, build(file, names, tables));
    }

    private static SameDiffGraph build(Path file, GraphNames names, List<EmbeddingTable> tables) {
        return SameDiffGraph.withTables(FileModel.read(file), names, "model file " + file.getFileName(),
                tables.toArray(EmbeddingTable[]::new));
    }

    /** @return the graph as the file has it, its tables declared */
    public SameDiffGraph graph() {
        return build(file, names, tables);
    }

    /** @return the declared tables */
    public List<EmbeddingTable> tables() {
        return tables;
    }

    @Override
    public String name() {
        return file.toString();
    }

    /**
     * @throws PsException INVALID_ARGUMENT always: this model is trained by the library trainer, which builds its
     *                     own parameters from {@link #graph}
     */
    @Override
    public TrainableModel create(int inputSize, int numClasses) {
        throw new PsException(ErrorCode.INTERNAL, "model file " + file.getFileName() + " is trained by the library "
                + "trainer, not as a stock model");
    }

    @Override
    public Placement check(Placement placement) {
        return placement.check("model file " + file.getFileName(), params);
    }
}
