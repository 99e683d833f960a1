package io.jvmps.common.sparse;

/**
 * A sparse push: row gradients (or deltas) for ids of one table on one server.
 *
 * @param table  table name
 * @param sender the worker's rank
 * @param step   the worker's step (for logs and metrics; sparse pushes apply as they arrive)
 * @param kind   gradients or deltas
 * @param dim    values per row; must equal the table's
 * @param ids    row ids; repeated ids are summed by the server
 * @param values {@code ids.length * dim} floats, row-major
 */
public record SparsePush(String table, int sender, long step, UpdateKind kind, int dim, long[] ids, float[] values) {
}
