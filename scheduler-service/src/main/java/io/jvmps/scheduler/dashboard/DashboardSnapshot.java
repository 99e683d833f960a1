package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.scheduler.progress.LossHistory;

import java.util.List;
import java.util.Map;

/**
 * Everything the dashboard page draws, sent as one JSON object ({@code GET /api/v1/dashboard} and every
 * event of {@code GET /api/v1/dashboard/stream}).
 *
 * @param timeMillis when it was taken (scheduler clock)
 * @param cluster    topology: every node with role, rank, address and state
 * @param job        job state, accuracy and each worker's latest progress
 * @param history    each worker's loss and throughput curve, by rank
 * @param events     recent events, newest first
 * @param servers    what each server reported with its last heartbeat (memory, push and pull p99, checkpoint,
 *                   staleness served), by rank
 */
public record DashboardSnapshot(long timeMillis, ClusterView cluster, JobStatus job,
                                Map<Integer, List<LossHistory.Point>> history, List<ClusterEvent> events,
                                List<ServerVitalsBoard.Row> servers) {
}
