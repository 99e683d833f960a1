package io.jvmps.server.monitor;

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
 * @param consistency     the consistency mode
 * @param expectedWorkers workers a sync step waits for
 * @param pushesApplied   pushes accepted so far
 * @param updatesApplied  slice updates applied so far
 */
public record ServerStatus(int rank, String nodeId, int slices, long totalElements, long bytes, long minVersion,
                           long maxVersion, String optimizer, String consistency, int expectedWorkers,
                           long pushesApplied, long updatesApplied) {
}
