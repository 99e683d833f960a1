package io.jvmps.common.protocol;

/**
 * A worker's final evaluation on its shard of the test set, posted to {@code POST /api/v1/results}.
 * The scheduler sums {@code correct} and {@code total} over workers to get the job's accuracy.
 *
 * @param nodeId  the reporting worker's id
 * @param correct number of correctly classified test samples in the shard
 * @param total   number of test samples in the shard
 * @param trainSeconds wall time the worker spent training, seconds
 */
public record ResultReport(String nodeId, long correct, long total, double trainSeconds) {
}
