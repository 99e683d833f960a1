package io.jvmps.client.data;

import io.jvmps.common.embedding.RowStore;
import io.jvmps.common.sparse.UpdateKind;

/**
 * An embedding cache's {@link RowStore} on the servers' sparse table: reads are sparse pulls, write-backs
 * are sparse pushes of {@code current - base} as {@link UpdateKind#DELTA}, so the servers add what the
 * worker changed locally. Thread-safe (the client is).
 */
public final class SparseRowStore implements RowStore {
    private final SparseClient client;
    private final String table;
    private final int dim;

    /**
     * @param client the worker's sparse client
     * @param table  the table's name
     * @param dim    its row width
     */
    public SparseRowStore(SparseClient client, String table, int dim) {
        this.client = client;
        this.table = table;
        this.dim = dim;
    }

    @Override
    public void read(long[] ids, float[] out) {
        client.pull(table, dim, ids, out);
    }

    @Override
    public void writeBack(long[] ids, float[] current, float[] base) {
        float[] delta = new float[current.length];
        for (int i = 0; i < delta.length; i++) {
            delta[i] = current[i] - base[i];
        }
        client.push(table, dim, -1, UpdateKind.DELTA, ids, delta);
    }
}
