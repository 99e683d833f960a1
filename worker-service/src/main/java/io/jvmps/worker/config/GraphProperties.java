package io.jvmps.worker.config;

import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import java.util.List;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The variables of a model file's graph ({@code ps.worker.graph.*}), used when {@code ps.worker.model} names a
 * SameDiff model file. The defaults are the names the built-in models use ({@link GraphNames#DEFAULT}).
 *
 * @param input feature placeholder, a FLOAT matrix {@code [-1, d]}
 * @param label one-hot label placeholder, a FLOAT matrix {@code [-1, k]}
 * @param loss the loss training minimises
 * @param prediction class scores {@code [n, k]}; the arg-max is the predicted class ({@code [n, 1]}: the rating or
 *     the click probability, with a REAL or BINARY label)
 * @param tables the graph's embedding tables, held on the servers, each {@code NAME[:hashed][:init=SCALE][:seed=N]
 *     [:optimizer=TYPE]} ({@link EmbeddingTable#parse}); a graph with tables trains through the library trainer
 */
public record GraphProperties(
        @NotBlank @DefaultValue("input") String input,
        @NotBlank @DefaultValue("label") String label,
        @NotBlank @DefaultValue("loss") String loss,
        @NotBlank @DefaultValue("probabilities") String prediction,
        @NotNull @DefaultValue List<String> tables) {

    public GraphProperties {
        tables = tables == null ? List.of() : List.copyOf(tables);
    }

    /**
     * @return the declared tables
     * @throws PsException INVALID_ARGUMENT naming {@code ps.worker.graph.tables} and the entry it cannot read
     */
    public List<EmbeddingTable> embeddingTables() {
        try {
            return tables.stream().map(EmbeddingTable::parse).toList();
        } catch (IllegalArgumentException | PsException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.graph.tables: " + e.getMessage());
        }
    }

    /** @return the names as one value */
    public GraphNames names() {
        return new GraphNames(input, label, loss, prediction);
    }
}
