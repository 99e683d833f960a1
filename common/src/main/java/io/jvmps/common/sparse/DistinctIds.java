package io.jvmps.common.sparse;

import org.agrona.collections.Long2LongHashMap;

/**
 * A batch's ids deduplicated: the distinct ids in first-seen order and, for each position of the batch, the
 * index of its id among them. Used wherever rows of repeated ids are merged (a server summing a push's
 * gradients, a worker pulling each row once). Immutable after construction; arrays are not copied.
 *
 * @param ids     the distinct ids, in order of first appearance
 * @param indexOf per position of the batch, the index of its id in {@code ids}
 */
public record DistinctIds(long[] ids, int[] indexOf) {

    /**
     * @param positions one id per position, repeats allowed
     * @return the deduplication
     */
    public static DistinctIds of(long[] positions) {
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

    /**
     * @param distinctRows {@code ids().length * dim} floats, row {@code i} for {@code ids()[i]}
     * @return the rows spread out to every position, {@code indexOf().length * dim} floats
     */
    public float[] gather(float[] distinctRows, int dim) {
        float[] out = new float[indexOf.length * dim];
        for (int i = 0; i < indexOf.length; i++) {
            System.arraycopy(distinctRows, indexOf[i] * dim, out, i * dim, dim);
        }
        return out;
    }

    /**
     * @param positionValues {@code indexOf().length * dim} floats, one row per position
     * @return per distinct id, the sum of its positions' rows, {@code ids().length * dim} floats
     */
    public float[] sum(float[] positionValues, int dim) {
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
