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
 * @param cacheRows rows of each table a worker embedding cache keeps (hot rows trained locally, written back as
 *     deltas); 0: no cache (SYNC, ASYNC and SSP)
 * @param cacheEviction which cached row gives way: LRU or LFU
 * @param cacheLearningRate the cached rows' local SGD rate; 0: the servers' learning rate
 * @param cacheRefreshSteps every this many steps each cache writes its changed rows back and starts empty, so rows
 *     hot on every worker see the others' changes; 0: never (rows go back only when evicted and at the end)
 */
public record GraphProperties(
        @NotBlank @DefaultValue("input") String input,
        @NotBlank @DefaultValue("label") String label,
        @NotBlank @DefaultValue("loss") String loss,
        @NotBlank @DefaultValue("probabilities") String prediction,
        @NotNull @DefaultValue List<String> tables,
        @jakarta.validation.constraints.Min(0) @DefaultValue("0") int cacheRows,
        @NotNull @DefaultValue("LRU") io.jvmps.common.embedding.EvictionPolicy cacheEviction,
        @jakarta.validation.constraints.DecimalMin("0") @DefaultValue("0") double cacheLearningRate,
        @jakarta.validation.constraints.Min(0) @DefaultValue("50") int cacheRefreshSteps) {

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
