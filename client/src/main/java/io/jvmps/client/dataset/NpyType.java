package io.jvmps.client.dataset;

import java.nio.ByteBuffer;
import java.util.Arrays;

/** The element types a {@code .npy} data file may hold, read as float; all little-endian or byte-sized. */
enum NpyType {
    FLOAT32("<f4", 4), FLOAT64("<f8", 8), UINT8("|u1", 1), INT8("|i1", 1), INT16("<i2", 2), INT32("<i4", 4),
    INT64("<i8", 8);

    private final String descr;
    private final int bytes;

    NpyType(String descr, int bytes) {
        this.descr = descr;
        this.bytes = bytes;
    }

    /** @return the type of a {@code descr}, or null ({@code '=' }, native order, counts as little-endian) */
    static NpyType of(String descr) {
        String normal = descr.startsWith("=") ? "<" + descr.substring(1) : descr;
        if (normal.length() == 3 && normal.charAt(2) == '1' && normal.charAt(0) != '|') {
            normal = "|" + normal.substring(1);
        }
        for (NpyType t : values()) {
            if (t.descr.equals(normal)) {
                return t;
            }
        }
        return null;
    }

    /** @return the accepted {@code descr} values */
    static String accepted() {
        return Arrays.toString(Arrays.stream(values()).map(t -> t.descr).toArray());
    }

    int bytes() {
        return bytes;
    }

    /** @return the next element of a little-endian buffer, as a double */
    double next(ByteBuffer in) {
        return switch (this) {
            case FLOAT32 -> in.getFloat();
            case FLOAT64 -> in.getDouble();
            case UINT8 -> in.get() & 0xff;
            case INT8 -> in.get();
            case INT16 -> in.getShort();
            case INT32 -> in.getInt();
            case INT64 -> in.getLong();
        };
    }
}
