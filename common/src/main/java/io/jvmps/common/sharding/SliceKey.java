package io.jvmps.common.sharding;

/**
 * Packs (parameter index, slice index) into one 64-bit key, parameter in the high 32 bits, so keys
 * of one parameter form a contiguous range (ps-lite style key ranges) and sort by parameter then
 * slice. Stateless.
 */
public final class SliceKey {
    private SliceKey() {
    }

    /**
     * @param paramIndex position of the parameter in the model's list, &gt;= 0
     * @param sliceIndex position of the slice within the parameter, &gt;= 0
     * @return the key
     */
    public static long of(int paramIndex, int sliceIndex) {
        return ((long) paramIndex << 32) | (sliceIndex & 0xffffffffL);
    }

    /** @return the parameter index of a key */
    public static int param(long key) {
        return (int) (key >>> 32);
    }

    /** @return the slice index of a key */
    public static int slice(long key) {
        return (int) key;
    }

    /** @return {@code p<param>/s<slice>}, for messages */
    public static String describe(long key) {
        return "p" + param(key) + "/s" + slice(key);
    }
}
