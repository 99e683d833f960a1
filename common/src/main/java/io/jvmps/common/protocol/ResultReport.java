package io.jvmps.common.protocol;

/**
 * A worker's final evaluation on its shard of the test set, posted to {@code POST /api/v1/results}. A
 * classification result counts correct predictions; a regression result (ratings, prices) sums its errors, and
 * the scheduler sums every worker's to the job's RMSE and MAE. Every worker of a job reports the same kind.
 *
 * @param nodeId        the reporting worker's id
 * @param correct       correctly classified test samples in the shard (0 for a regression result)
 * @param total         test samples (a regression's targets) in the shard
 * @param trainSeconds  wall time the worker spent training, seconds
 * @param squaredError  a regression's sum of squared errors over the shard, or null for a classification
 * @param absoluteError a regression's sum of absolute errors over the shard, or null for a classification
 */
public record ResultReport(String nodeId, long correct, long total, double trainSeconds, Double squaredError,
                           Double absoluteError) {
    /** A classification result. */
    public ResultReport(String nodeId, long correct, long total, double trainSeconds) {
        this(nodeId, correct, total, trainSeconds, null, null);
    }

    /** @return a regression result of {@code targets} targets */
    public static ResultReport regression(String nodeId, double squaredError, double absoluteError, long targets,
                                          double trainSeconds) {
        return new ResultReport(nodeId, 0, targets, trainSeconds, squaredError, absoluteError);
    }

    /** @return whether this is a regression result (its error sums are given) */
    public boolean isRegression() {
        return squaredError != null || absoluteError != null;
    }
}
