package io.jvmps.worker.ctr;

import io.jvmps.client.train.SameDiffTrainer;
import io.jvmps.common.metrics.ClickHistogram;

import java.util.stream.IntStream;

/**
 * Scores examples with the trained wide-and-deep graph and the servers' final tables (pulled, not read through a
 * cache) and measures AUC, log loss and thresholded accuracy against the clicks.
 *
 * @param examples examples scored
 * @param auc      area under the ROC curve
 * @param oracle   AUC of the true probabilities on the same examples
 * @param clicks   the scores' histogram (log loss and accuracy at 0.5 come from it), which the worker reports for the
 *                 job's merged AUC and log loss
 */
public record CtrEvaluation(int examples, double auc, double oracle, ClickHistogram clicks) {

    /** @return mean negative log-likelihood */
    public double logLoss() {
        return clicks.logLoss();
    }

    /** @return examples whose {@code p >= 0.5} matches the click */
    public long correct() {
        return clicks.correct();
    }

    /** @return the share of examples whose {@code p >= 0.5} matches the click, NaN without examples */
    public double accuracy() {
        return examples == 0 ? Double.NaN : (double) correct() / examples;
    }

    /**
     * @param trainer   the trained wide-and-deep graph ({@link WideDeepGraph}); its predictions pull the tables' rows
     *                  from the servers
     * @param data      test examples
     * @param from      first example to score
     * @param to        one past the last
     * @param batchSize examples per forward pass
     */
    public static CtrEvaluation run(SameDiffTrainer trainer, ClickData data, int from, int to, int batchSize) {
        int n = Math.max(0, to - from);
        float[] scores = new float[n];
        ClickExamples examples = new ClickExamples(data);
        for (int start = 0; start < n; start += batchSize) {
            int[] batch = IntStream.range(from + start, from + Math.min(n, start + batchSize)).toArray();
            float[] p = trainer.predict(examples.gather(batch)).toFloatVector();
            System.arraycopy(p, 0, scores, start, p.length);
        }
        byte[] labels = new byte[n];
        float[] truth = new float[n];
        double[] probabilities = new double[n];
        double[] clicks = new double[n];
        for (int i = 0; i < n; i++) {
            labels[i] = (byte) data.label(from + i);
            truth[i] = data.truth(from + i);
            probabilities[i] = scores[i];
            clicks[i] = labels[i];
        }
        return new CtrEvaluation(n, Auc.of(scores, labels), Auc.of(truth, labels),
                ClickHistogram.of(probabilities, clicks));
    }
}
