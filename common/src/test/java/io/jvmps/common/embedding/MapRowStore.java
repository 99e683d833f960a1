package io.jvmps.common.embedding;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A table in a map, as the servers would hold it: a row that was never written starts at a value that
 * depends only on its id; a write-back adds what changed ({@code current - base}). Records every call.
 */
final class MapRowStore implements RowStore {
    final int dim;
    final Map<Long, float[]> rows = new HashMap<>();
    final List<long[]> reads = new ArrayList<>();
    final List<long[]> writes = new ArrayList<>();

    MapRowStore(int dim) {
        this.dim = dim;
    }

    float[] row(long id) {
        return rows.computeIfAbsent(id, i -> {
            float[] r = new float[dim];
            for (int k = 0; k < dim; k++) {
                r[k] = (float) ((i * 31 + k) % 7) / 10f;
            }
            return r;
        });
    }

    @Override
    public synchronized void read(long[] ids, float[] out) {
        reads.add(ids.clone());
        for (int i = 0; i < ids.length; i++) {
            System.arraycopy(row(ids[i]), 0, out, i * dim, dim);
        }
    }

    @Override
    public synchronized void writeBack(long[] ids, float[] current, float[] base) {
        writes.add(ids.clone());
        for (int i = 0; i < ids.length; i++) {
            float[] r = row(ids[i]);
            for (int k = 0; k < dim; k++) {
                r[k] += current[i * dim + k] - base[i * dim + k];
            }
        }
    }
}
