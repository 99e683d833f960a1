/**
 * The jobs over sparse tables with their own loops: the wide-and-deep CTR job with the embedding cache
 * ({@link io.jvmps.worker.train.table.CtrJob}) and the sparse linear model on LibSVM data
 * ({@link io.jvmps.worker.train.table.SparseLinearJob}).
 */
package io.jvmps.worker.train.table;
