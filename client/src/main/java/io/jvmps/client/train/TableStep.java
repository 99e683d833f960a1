package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.common.embedding.CacheStats;

import java.util.Map;

/**
 * How a training step of {@link SameDiffTrainer} reads a graph's table rows and applies their gradients, one
 * instance per fit: {@link #direct} pulls and pushes every step, {@link GeoTableRows} keeps a GEO round's rows on
 * the worker, {@link TableCaches} keeps hot rows in embedding caches. Not thread-safe: the training thread's.
 */
interface TableStep extends AutoCloseable {
    /** Gives the batch its rows. */
    void fill(TableRows rows, SparseClient client);

    /**
     * Applies the pass's row gradients.
     *
     * @param last whether this is the worker's last step of the fit (what is kept must reach the servers before
     *             its dense push, which every worker's final pull waits for)
     */
    void update(TableRows rows, SparseClient client, long step, StepResult result, boolean last);

    /** A GEO round ended: push what the round kept, before the dense round's push. */
    default void roundEnded(SparseClient client, long round) {
    }

    /** The servers rolled back to a checkpoint: drop what is kept unpushed and go on with {@code client}. */
    default void recovered(SparseClient client) {
    }

    /**
     * The fit ends unfinished, on a stop or an error that is no server loss: what is kept on the worker and belongs
     * to steps the servers applied goes back to them (an embedding cache writes its changed rows back). A failure to
     * do so is logged and added to {@code cause} as suppressed, never thrown.
     *
     * @param cause what ends the fit, rethrown by the trainer
     */
    default void stopped(RuntimeException cause) {
    }

    /** @return each cached table's counters, by table (none without caches) */
    default Map<String, CacheStats> stats() {
        return Map.of();
    }

    @Override
    default void close() {
    }

    /**
     * @return the fit's table step: none without tables, GEO's rounds, the caches of the {@code cached} tables, or
     * the plain step
     */
    static TableStep of(GraphTables tables, boolean geo, double geoLearningRate, int workers,
                        Map<String, TableCaches.Setting> cached, SparseClient sparse) {
        if (tables.isEmpty()) {
            return null;
        }
        if (geo) {
            return new GeoTableRows(tables, geoLearningRate, workers);
        }
        return cached.isEmpty() ? direct() : new TableCaches(tables, cached, sparse);
    }

    /** @return the plain step: every table's distinct rows pulled, their summed gradients pushed */
    static TableStep direct() {
        return new TableStep() {
            @Override
            public void fill(TableRows rows, SparseClient client) {
                rows.pull(client);
            }

            @Override
            public void update(TableRows rows, SparseClient client, long step, StepResult result, boolean last) {
                rows.push(client, step, result); // before the dense push: a SYNC step's barrier covers the rows
            }
        };
    }
}
