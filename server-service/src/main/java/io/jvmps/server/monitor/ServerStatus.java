package io.jvmps.server.monitor;

import io.jvmps.common.sparse.SparseTableStatus;

import java.util.List;

/**
 * A server's state, served as JSON at {@code GET /api/v1/status} and on RSocket route
 * {@code ps.v1.status}.
 *
 * @param rank            server rank (-1 before registration)
 * @param nodeId          node id from the scheduler (null before registration)
 * @param slices          number of dense slices held
 * @param totalElements   float32 elements over all slices
 * @param bytes           parameter bytes over all slices (optimizer state not included)
 * @param minVersion      lowest slice version, -1 without slices
 * @param maxVersion      highest slice version, -1 without slices
 * @param optimizer       the optimizer and its hyper-parameters
 * @param consistency     the consistency mode (SYNC, ASYNC, SSP, GEO)
 * @param expectedWorkers workers of the job
 * @param pushesApplied   pushes accepted so far
 * @param updatesApplied  slice updates applied so far
 * @param staleness       SSP staleness bound; 0 in other modes
 * @param geoInterval     GEO interval k; 0 in other modes
 * @param geoLearningRate GEO local learning rate; 0 in other modes
 * @param workerClocks    per worker rank: ASYNC and SSP last pushed step + 1, GEO last pushed round + 1;
 *                        empty in SYNC
 * @param sparseTables    the sparse tables this server holds rows of
 * @param sparseBytes     bytes reserved by all sparse tables
 * @param sparseMaxBytes  the cap on them ({@code ps.sparse.max-bytes})
 */
public record ServerStatus(int rank, String nodeId, int slices, long totalElements, long bytes, long minVersion,
                           long maxVersion, String optimizer, String consistency, int expectedWorkers,
                           long pushesApplied, long updatesApplied, int staleness, int geoInterval,
                           double geoLearningRate, List<Long> workerClocks,
                           List<SparseTableStatus> sparseTables, long sparseBytes, long sparseMaxBytes) {
}
