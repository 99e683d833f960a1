package io.jvmps.common.sparse;


/**
 * A row's initial values, a pure function of {@code (seed, id)}: element {@code k} is uniform in
 * {@code [-scale, scale)}, drawn from a 64-bit mix of seed, id and k. Every server (and a restore onto
 * any number of servers) computes the same row, and so does a worker building the same table in one process.
 * Stateless.
 */
public final class RowInitializer {
    private static final float UNIT = 0x1.0p-24f;

    private RowInitializer() {
    }

    /**
     * Writes row {@code id}'s initial values.
     *
     * @param out receives {@code dim} floats at {@code offset}
     */
    public static void fill(long seed, long id, float scale, float[] out, int offset, int dim) {
        long rowSeed = RowPlacement.mix(seed ^ RowPlacement.mix(id));
        for (int k = 0; k < dim; k++) {
            long bits = RowPlacement.mix(rowSeed + k);
            float unit = (bits >>> 40) * UNIT;
            out[offset + k] = scale == 0f ? 0f : (2f * unit - 1f) * scale;
        }
    }
}
