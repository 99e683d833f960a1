package io.jvmps.common.sparse;

/**
 * A page of a table's ids on one server, ascending (route {@code ps.v1.sparse.ids}). Immutable; JSON on the wire.
 *
 * @param ids  the ids, ascending as signed 64-bit numbers
 * @param more whether the server holds ids after the last one
 */
public record SparseIds(long[] ids, boolean more) {
}
