package io.jvmps.common.sparse;

/**
 * One sparse table as one server holds it; JSON in the declare answer and in server status.
 *
 * @param name      table name
 * @param dim       values per row
 * @param optimizer the optimizer applied to gradient pushes, with its hyper-parameters
 * @param rows      rows this server created (rows no push touched are not held)
 * @param bytes     bytes this server holds for the table (values, optimizer state, ids, index, admission sketch)
 * @param pushes    pushes applied
 * @param admitted  rows pushes created (every new id's first push, or its admission, see {@link RowLifecycle})
 * @param evicted   rows removed as idle
 * @param dropped   row gradients dropped because their id was not admitted yet
 */
public record SparseTableStatus(String name, int dim, String optimizer, long rows, long bytes, long pushes,
                                long admitted, long evicted, long dropped) {
}
