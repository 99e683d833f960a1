package io.jvmps.common.sparse;

/**
 * Which server holds a sparse row: a fixed 64-bit mix of the id, reduced modulo the number of servers,
 * so consecutive or clustered ids spread evenly and every worker computes the same owner without asking.
 * Stateless and thread-safe.
 */
public final class RowPlacement {
    private RowPlacement() {
    }

    /**
     * @param id      row id (any 64-bit value)
     * @param servers number of servers, &gt;= 1
     * @return the owning server rank, in {@code [0, servers)}
     */
    public static int serverOf(long id, int servers) {
        if (servers < 1) {
            throw new IllegalArgumentException("servers must be >= 1, got " + servers);
        }
        return (int) Long.remainderUnsigned(mix(id), servers);
    }

    /**
     * The SplitMix64 finalizer: a bijection of 64-bit values whose output bits each depend on every input bit.
     *
     * @param x any value
     * @return its mix
     */
    public static long mix(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
