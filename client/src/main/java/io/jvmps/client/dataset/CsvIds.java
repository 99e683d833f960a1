package io.jvmps.client.dataset;

import io.jvmps.common.sparse.RowPlacement;

import java.nio.charset.StandardCharsets;

/**
 * How a categorical text becomes a 64-bit id: the 64-bit FNV-1a hash of the column's name, a zero byte and the
 * text's UTF-8 bytes, then RowPlacement's 64-bit mix. Equal texts in two columns get different ids; the same
 * text in the same column gets the same id in every process and every run. Stateless.
 */
public final class CsvIds {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private CsvIds() {
    }

    /** @return the id of {@code text} in column {@code column} */
    public static long hash(String column, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return hash(seed(column), bytes, 0, bytes.length);
    }

    /** @return the hash state after a column's name and the separating zero byte */
    static long seed(String column) {
        long h = FNV_OFFSET;
        for (byte b : column.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * FNV_PRIME;
        }
        return h * FNV_PRIME; // the zero byte
    }

    /** @return the id of the text in {@code bytes[from, to)} for a column's {@link #seed} */
    static long hash(long seed, byte[] bytes, int from, int to) {
        long h = seed;
        for (int i = from; i < to; i++) {
            h = (h ^ (bytes[i] & 0xff)) * FNV_PRIME;
        }
        return RowPlacement.mix(h);
    }
}
