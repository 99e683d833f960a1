package io.jvmps.worker.ctr;

import io.jvmps.common.embedding.CacheStats;
import io.jvmps.common.sparse.DistinctIds;
import io.jvmps.common.sparse.UpdateKind;
import io.jvmps.client.data.SparseClient;

/**
 * Lookup without a cache: each step pulls the batch's distinct rows and pushes their summed gradients,
 * which the servers' optimizer applies. Nothing is kept between steps.
 */
public final class DirectLookup implements EmbeddingLookup {
    private final SparseClient client;
    private final String table;
    private final int dim;
    private DistinctIds last;

    /**
     * @param client the worker's sparse client
     * @param table  the table's name
     * @param dim    its row width
     */
    public DirectLookup(SparseClient client, String table, int dim) {
        this.client = client;
        this.table = table;
        this.dim = dim;
    }

    @Override
    public int dim() {
        return dim;
    }

    @Override
    public float[] lookup(long[] ids) {
        last = DistinctIds.of(ids);
        float[] rows = new float[last.ids().length * dim];
        client.pull(table, dim, last.ids(), rows);
        return last.gather(rows, dim);
    }

    @Override
    public void update(long step, float[] gradient) {
        client.push(table, dim, step, UpdateKind.GRADIENT, last.ids(), last.sum(gradient, dim));
    }

    @Override
    public void flush() {
    }

    @Override
    public CacheStats stats() {
        return CacheStats.NONE;
    }

    @Override
    public void close() {
    }
}
