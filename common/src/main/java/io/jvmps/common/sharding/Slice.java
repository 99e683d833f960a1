package io.jvmps.common.sharding;

/**
 * A contiguous run of one parameter's flattened (row-major) elements, owned by one server.
 * Immutable.
 *
 * @param key        the {@link SliceKey}
 * @param paramIndex position of the parameter in the model's list
 * @param paramName  the parameter's name, for messages
 * @param offset     index of the first element within the flattened parameter
 * @param length     number of float32 elements, &gt;= 1
 * @param server     rank of the owning server
 */
public record Slice(long key, int paramIndex, String paramName, long offset, int length, int server) {
    /** @return bytes of float32 data */
    public long bytes() {
        return 4L * length;
    }
}
