package io.jvmps.common.protocol;

import java.util.List;

/**
 * The job as the scheduler sees it, served at {@code GET /api/v1/job} (JSON).
 *
 * @param state          {@code WAITING} (nodes missing), {@code RUNNING}, {@code FINISHED} (every worker reported a
 *                       result) or {@code FAILED} (a node reported that the job cannot go on; see {@code failure})
 * @param workersReported how many workers posted a final result
 * @param expectedWorkers how many workers the job expects
 * @param correct        sum of correct test predictions reported so far
 * @param total          sum of test samples evaluated so far
 * @param accuracy       correct / total, or NaN before any result
 * @param latest         each worker's latest progress report, by worker rank
 * @param failure        why the job failed (the first reason reported), or null
 */
public record JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                        double accuracy, List<ProgressReport> latest, String failure) {
    /** A status of a job that has not failed. */
    public JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                     double accuracy, List<ProgressReport> latest) {
        this(state, workersReported, expectedWorkers, correct, total, accuracy, latest, null);
    }
}
