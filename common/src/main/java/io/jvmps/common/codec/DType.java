package io.jvmps.common.codec;

/**
 * Element types a tensor frame can carry. The code is the byte written on the wire and never
 * changes; {@link #size()} is the element width in bytes. All values are little-endian on the wire.
 */
public enum DType {
    /** IEEE-754 binary32. The type of every dense parameter and gradient. */
    FLOAT32(1, 4),
    /** IEEE-754 binary64. */
    FLOAT64(2, 8),
    /** Two's-complement 32-bit integer. */
    INT32(3, 4),
    /** Two's-complement 64-bit integer (embedding ids). */
    INT64(4, 8),
    /** Unsigned bytes (e.g. raw pixels). */
    UINT8(5, 1);

    private final byte code;
    private final int size;

    DType(int code, int size) {
        this.code = (byte) code;
        this.size = size;
    }

    /** @return the wire code */
    public byte code() {
        return code;
    }

    /** @return element width in bytes */
    public int size() {
        return size;
    }

    /**
     * @param code a wire code
     * @return the matching type
     * @throws IllegalArgumentException for an unknown code
     */
    public static DType fromCode(byte code) {
        for (DType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown dtype code " + code);
    }
}
