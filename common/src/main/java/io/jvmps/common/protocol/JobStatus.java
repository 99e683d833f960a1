package io.jvmps.common.protocol;

import java.util.List;

/**
 * The job as the scheduler sees it, served at {@code GET /api/v1/job} (JSON).
 *
 * @param state          {@code WAITING} (nodes missing), {@code RUNNING}, {@code FINISHED} (every worker reported a result)
 * @param workersReported how many workers posted a final result
 * @param expectedWorkers how many workers the job expects
 * @param correct        sum of correct test predictions reported so far
 * @param total          sum of test samples evaluated so far
 * @param accuracy       correct / total, or NaN before any result
 * @param latest         each worker's latest progress report, by worker rank
 */
public record JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                        double accuracy, List<ProgressReport> latest) {
}
