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
 * @param task           {@code CLASSIFICATION} (accuracy), {@code REGRESSION} (rmse and mae) or {@code BINARY} (a
 *                       click model: auc, logLoss and the accuracy at 0.5), by the results reported so far
 *                       ({@code CLASSIFICATION} before any)
 * @param rmse           a regression's root mean squared error over every target reported, or NaN
 * @param mae            a regression's mean absolute error over every target reported, or NaN
 * @param auc            a click model's area under the ROC curve over every example reported, or NaN
 * @param logLoss        a click model's mean log loss over every example reported, or NaN
 */
public record JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                        double accuracy, List<ProgressReport> latest, String failure, String task, double rmse,
                        double mae, double auc, double logLoss) {
    /** The task of a regression job. */
    public static final String REGRESSION = "REGRESSION";
    /** The task of a click model's (binary classifier's) job. */
    public static final String BINARY = "BINARY";
    /** The task of a classification job, and of a job before any result. */
    public static final String CLASSIFICATION = "CLASSIFICATION";

    /**
     * A status without a task (from a scheduler that sends none) is a classification's; metrics of another task
     * than its own read NaN.
     */
    public JobStatus {
        if (task == null) {
            task = CLASSIFICATION;
        }
        if (!REGRESSION.equals(task)) {
            rmse = Double.NaN;
            mae = Double.NaN;
        }
        if (!BINARY.equals(task)) {
            auc = Double.NaN;
            logLoss = Double.NaN;
        }
    }

    /** A classification job's status. */
    public JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                     double accuracy, List<ProgressReport> latest, String failure) {
        this(state, workersReported, expectedWorkers, correct, total, accuracy, latest, failure, CLASSIFICATION,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    /** A status of a classification job that has not failed. */
    public JobStatus(String state, int workersReported, int expectedWorkers, long correct, long total,
                     double accuracy, List<ProgressReport> latest) {
        this(state, workersReported, expectedWorkers, correct, total, accuracy, latest, null);
    }
}
