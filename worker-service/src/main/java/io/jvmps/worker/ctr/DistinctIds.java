package io.jvmps.worker.ctr;

import org.agrona.collections.Long2LongHashMap;

/** A batch's ids deduplicated: the distinct ids in first-seen order and, per position, its distinct index. */
record DistinctIds(long[] ids, int[] indexOf) {

    static DistinctIds of(long[] positions) {
        Long2LongHashMap seen = new Long2LongHashMap(Math.max(8, positions.length * 2), 0.65f, -1);
        long[] distinct = new long[positions.length];
        int[] indexOf = new int[positions.length];
        int count = 0;
        for (int i = 0; i < positions.length; i++) {
            long at = seen.get(positions[i]);
            if (at < 0) {
                at = count;
                seen.put(positions[i], count);
                distinct[count++] = positions[i];
            }
            indexOf[i] = (int) at;
        }
        return new DistinctIds(java.util.Arrays.copyOf(distinct, count), indexOf);
    }

    /** @return the distinct rows spread out to every position */
    float[] gather(float[] distinctRows, int dim) {
        float[] out = new float[indexOf.length * dim];
        for (int i = 0; i < indexOf.length; i++) {
            System.arraycopy(distinctRows, indexOf[i] * dim, out, i * dim, dim);
        }
        return out;
    }

    /** @return per distinct id, the sum of its positions' values */
    float[] sum(float[] positionValues, int dim) {
        float[] out = new float[ids.length * dim];
        for (int i = 0; i < indexOf.length; i++) {
            int to = indexOf[i] * dim;
            int from = i * dim;
            for (int k = 0; k < dim; k++) {
                out[to + k] += positionValues[from + k];
            }
        }
        return out;
    }
}
