package io.jvmps.client.train;

import io.jvmps.client.data.SparseClient;
import io.jvmps.client.data.SparseRowStore;
import io.jvmps.common.embedding.CacheStats;
import io.jvmps.common.embedding.EmbeddingCacheManager;
import io.jvmps.common.embedding.EvictionPolicy;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The worker embedding caches of a graph's tables (MindSpore's {@code vocab_cache_size}) for
 * {@link SameDiffTrainer}: a cached table's rows stay on the worker between steps in an
 * {@link EmbeddingCacheManager}, are trained there by plain SGD at the cache's rate, and go back to the servers as
 * deltas when the cache evicts them and when training ends ({@link #flush}); the other tables are pulled and pushed
 * every step as without a cache. After a lost server the caches are dropped unwritten ({@link #recovered}): their
 * changes belong to steps the servers rolled back. Not thread-safe: the training thread's (the caches' store calls
 * run on a thread of their own, in order).
 */
final class TableCaches implements TableStep {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(TableCaches.class);
    /**
     * One table's cache.
     *
     * @param rows         most rows it holds, &gt;= 1 (at least a batch's distinct ids)
     * @param eviction     which row it gives up for a new one
     * @param learningRate the local SGD rate, &gt; 0
     * @param refreshSteps  every this many steps the cache writes its changed rows back and starts empty, so a row
     *                      hot on every worker reads the others' changes at least that often; 0: never
     * @param writeBackRows evicted changed rows gathered before they go back in one push, &gt;= 1 (1: after every
     *                      lookup that evicted some)
     */
    record Setting(int rows, EvictionPolicy eviction, double learningRate, int refreshSteps, int writeBackRows) {
        Setting {
            if (rows < 1 || !(learningRate > 0) || !Double.isFinite(learningRate) || eviction == null
                    || refreshSteps < 0 || writeBackRows < 1) {
                throw new IllegalArgumentException("a table cache needs rows >= 1, an eviction policy, a finite "
                        + "learning rate > 0, refresh steps >= 0 and write-back rows >= 1, got " + rows + " rows, "
                        + eviction + ", rate " + learningRate + ", refresh " + refreshSteps + ", write-back rows "
                        + writeBackRows);
            }
        }

        /**
         * @return the setting of a cache for {@code table} of a graph trained in {@code mode}
         * @throws PsException INVALID_ARGUMENT for a name that is no table (listing them), bad settings, or GEO
         */
        static Setting checked(GraphTables tables, io.jvmps.common.protocol.ConsistencyMode mode, String table,
                               int rows, EvictionPolicy eviction, double learningRate, int refreshSteps,
                               int writeBackRows) {
            if (!tables.isTable(table)) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "no table '" + table + "' to cache; the graph's "
                        + "tables: " + tables.variables());
            }
            if (mode == io.jvmps.common.protocol.ConsistencyMode.GEO) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "the embedding cache is for SYNC, ASYNC and SSP; "
                        + "in GEO each round keeps the rows it reads on the worker already");
            }
            try {
                return new Setting(rows, eviction, learningRate, refreshSteps, writeBackRows);
            } catch (IllegalArgumentException e) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "table '" + table + "': " + e.getMessage());
            }
        }
    }

    private final GraphTables tables;
    private final Setting[] settings;
    private final EmbeddingCacheManager[] caches;
    private final EmbeddingCacheManager.Batch[] batches;
    private final long[] updates;
    /** Per table: the counters of its caches before the current one (refreshes and recoveries start a new one). */
    private final CacheStats[] earlier;
    private SparseClient client;
    private final ExecutorService store = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "table-cache-store");
        t.setDaemon(true);
        return t;
    });

    /** @param byTable each cached table's setting, by its variable */
    TableCaches(GraphTables tables, Map<String, Setting> byTable, SparseClient client) {
        this.tables = tables;
        int n = tables.list().size();
        this.settings = new Setting[n];
        this.caches = new EmbeddingCacheManager[n];
        this.batches = new EmbeddingCacheManager.Batch[n];
        this.updates = new long[n];
        this.earlier = new CacheStats[n];
        java.util.Arrays.fill(earlier, CacheStats.NONE);
        for (int t = 0; t < n; t++) {
            settings[t] = byTable.get(tables.list().get(t).variable());
        }
        recovered(client);
    }

    /** Starts every cache empty over {@code client}, dropping what the old ones held unwritten. */
    @Override
    public void recovered(SparseClient client) {
        this.client = client;
        for (int t = 0; t < caches.length; t++) {
            if (settings[t] != null) {
                open(t);
            }
        }
    }

    private void open(int t) {
        if (caches[t] != null) {
            earlier[t] = earlier[t].plus(caches[t].stats());
        }
        GraphTables.Table table = tables.list().get(t);
        caches[t] = new EmbeddingCacheManager(table.dim(), settings[t].rows(), settings[t].eviction(),
                new SparseRowStore(client, table.variable(), table.dim()), store, settings[t].writeBackRows());
        batches[t] = null;
    }

    /** Gives the batch its rows: cached tables' from their caches, the others pulled from the servers. */
    @Override
    public void fill(TableRows rows, SparseClient client) {
        List<float[]> values = new ArrayList<>();
        for (int t = 0; t < caches.length; t++) {
            if (caches[t] == null) {
                values.add(rows.pullTable(client, t));
                continue;
            }
            batches[t] = caches[t].lookup(rows.ids(t));
            float[] out = new float[rows.ids(t).length * tables.list().get(t).dim()];
            batches[t].gather(out);
            values.add(out);
        }
        rows.use(values);
    }

    /**
     * Applies the pass: a cached table's rows take one local SGD step, the others' gradients are pushed; on the
     * last step every cache writes its changed rows back.
     */
    @Override
    public void update(TableRows rows, SparseClient client, long step, StepResult result, boolean last) {
        List<float[]> gradients = rows.rowGradients(step, result);
        for (int t = 0; t < caches.length; t++) {
            if (caches[t] == null) {
                rows.pushTable(client, step, t, gradients.get(t));
            } else {
                batches[t].addToAll((float) -settings[t].learningRate(), gradients.get(t));
                int refresh = settings[t].refreshSteps();
                if (!last && refresh > 0 && ++updates[t] % refresh == 0) {
                    caches[t].flush();
                    open(t);
                }
            }
        }
        if (last) {
            flush();
        }
    }

    /** Writes every changed row back to the servers and waits until they have it. */
    void flush() {
        for (EmbeddingCacheManager cache : caches) {
            if (cache != null) {
                cache.flush();
            }
        }
    }

    /**
     * Writes every changed row back before the fit ends unfinished, unless the servers lost their state (the rows
     * would mix into fresh ones). A stop interrupts the training thread; the write-back runs with the interrupt
     * cleared, and the flag is set again after.
     */
    @Override
    public void stopped(RuntimeException cause) {
        if (cause instanceof PsException ps && ps.code() == ErrorCode.STATE_LOST) {
            log.warn("The servers lost their state; the embedding caches' rows are dropped unwritten (they would mix "
                    + "into fresh rows)");
            return;
        }
        log.warn("Training stopped ({}); writing the embedding caches' changed rows back", cause.getMessage());
        boolean interrupted = Thread.interrupted();
        try {
            flush();
            log.info("Embedding caches written back after the stop");
        } catch (RuntimeException e) {
            log.warn("The embedding caches' changed rows could not be written back: {}", e.getMessage());
            cause.addSuppressed(e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return each cached table's counters since this fit began, by its variable */
    @Override
    public Map<String, CacheStats> stats() {
        Map<String, CacheStats> out = new LinkedHashMap<>();
        for (int t = 0; t < caches.length; t++) {
            if (caches[t] != null) {
                out.put(tables.list().get(t).variable(), earlier[t].plus(caches[t].stats()));
            }
        }
        return out;
    }

    /** Stops the store thread (flush first to keep the changes). */
    @Override
    public void close() {
        store.shutdownNow();
    }
}
