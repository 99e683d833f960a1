package io.jvmps.common.protocol;

import io.jvmps.common.metrics.ClickHistogram;

/**
 * A worker's final evaluation on its shard of the test set, posted to {@code POST /api/v1/results}. A
 * classification result counts correct predictions; a regression result (ratings, prices) sums its errors, and
 * the scheduler sums every worker's to the job's RMSE and MAE; a click model's (binary) result carries its
 * {@link ClickHistogram}, which the scheduler adds up to the job's AUC, log loss and accuracy. Every worker of a
 * job reports the same kind.
 *
 * @param nodeId        the reporting worker's id
 * @param correct       correctly classified test samples in the shard (0 for a regression result; a click result's
 *                      {@link ClickHistogram#correct()})
 * @param total         test samples (a regression's targets) in the shard
 * @param trainSeconds  wall time the worker spent training, seconds
 * @param squaredError  a regression's sum of squared errors over the shard, or null for a classification
 * @param absoluteError a regression's sum of absolute errors over the shard, or null for a classification
 * @param clicks        a click model's scores on the shard, or null for any other task
 */
public record ResultReport(String nodeId, long correct, long total, double trainSeconds, Double squaredError,
                           Double absoluteError, ClickHistogram clicks) {
    /** A classification result. */
    public ResultReport(String nodeId, long correct, long total, double trainSeconds) {
        this(nodeId, correct, total, trainSeconds, null, null, null);
    }

    /** @return a regression result of {@code targets} targets */
    public static ResultReport regression(String nodeId, double squaredError, double absoluteError, long targets,
                                          double trainSeconds) {
        return new ResultReport(nodeId, 0, targets, trainSeconds, squaredError, absoluteError, null);
    }

    /** @return a click model's result: its correct and total counts are the histogram's */
    public static ResultReport clicks(String nodeId, ClickHistogram clicks, double trainSeconds) {
        return new ResultReport(nodeId, clicks.correct(), clicks.examples(), trainSeconds, null, null, clicks);
    }

    /** @return whether this is a click model's (a binary classifier's) result: its histogram is given */
    public boolean isBinary() {
        return clicks != null;
    }

    /** @return whether this is a regression result (its error sums are given) */
    public boolean isRegression() {
        return squaredError != null || absoluteError != null;
    }
}
