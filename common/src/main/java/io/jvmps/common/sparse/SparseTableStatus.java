package io.jvmps.common.sparse;

/**
 * One sparse table as one server holds it; JSON in the declare answer and in server status.
 *
 * @param name      table name
 * @param dim       values per row
 * @param optimizer the optimizer applied to gradient pushes, with its hyper-parameters
 * @param rows      rows this server created (rows no push touched are not held)
 * @param bytes     bytes this server reserved for the table (values, optimizer state, ids, index)
 * @param pushes    pushes applied
 */
public record SparseTableStatus(String name, int dim, String optimizer, long rows, long bytes, long pushes) {
}
