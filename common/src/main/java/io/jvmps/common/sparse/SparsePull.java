package io.jvmps.common.sparse;

/**
 * A sparse pull: the rows of distinct ids of one table, from the server that owns them.
 *
 * @param table  table name
 * @param sender the worker's rank (for logs and metrics)
 * @param ids    distinct row ids; the answer holds their rows in this order
 */
public record SparsePull(String table, int sender, long[] ids) {
}
