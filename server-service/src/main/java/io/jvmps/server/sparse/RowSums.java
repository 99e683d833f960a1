package io.jvmps.server.sparse;

import org.agrona.collections.Long2LongHashMap;

/** A push's rows with repeated ids merged: distinct ids in first-seen order, their values summed. */
final class RowSums {
    private final long[] ids;
    private final float[] values;
    private final int count;

    private RowSums(long[] ids, float[] values, int count) {
        this.ids = ids;
        this.values = values;
        this.count = count;
    }

    static RowSums of(long[] ids, float[] values, int dim) {
        Long2LongHashMap positionOf = new Long2LongHashMap(Math.max(8, ids.length * 2), 0.65f, -1);
        long[] distinct = new long[ids.length];
        float[] sums = new float[values.length];
        int count = 0;
        for (int i = 0; i < ids.length; i++) {
            long position = positionOf.get(ids[i]);
            if (position < 0) {
                position = count;
                positionOf.put(ids[i], count);
                distinct[count++] = ids[i];
            }
            int to = (int) position * dim;
            int from = i * dim;
            for (int k = 0; k < dim; k++) {
                sums[to + k] += values[from + k];
            }
        }
        return new RowSums(distinct, sums, count);
    }

    int count() {
        return count;
    }

    long id(int i) {
        return ids[i];
    }

    float[] values() {
        return values;
    }
}
