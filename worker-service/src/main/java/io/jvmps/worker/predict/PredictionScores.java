package io.jvmps.worker.predict;

import io.jvmps.common.metrics.ClickHistogram;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Locale;

/**
 * What {@code predict} measures over a data set, batch by batch, by the model's task: a classifier's accuracy
 * (arg-max against the one-hot label), a regression's RMSE and MAE (every target), or a click model's AUC, log loss
 * and accuracy at 0.5 (its prediction one probability per example, as {@link ClickHistogram} scores it for the job
 * status). Not thread-safe: one per run.
 */
final class PredictionScores {
    /** The task a model is scored as ({@code --task}). */
    enum Task { CLASSIFICATION, REGRESSION, BINARY }

    private final Task task;
    private long examples;
    private long correct;
    private double squared;
    private double absolute;
    private long targets;
    private ClickHistogram clicks = ClickHistogram.empty();

    PredictionScores(Task task) {
        this.task = task;
    }

    /**
     * Adds a batch.
     *
     * @param scores    the model's output for the batch
     * @param labels    the batch's labels (one-hot classes, or {@code [n, 1]} targets or clicks)
     * @param first     the batch's first example's index in the data set (errors name examples by it)
     * @return one {@code predicted,label} text per example, for {@code --output}
     * @throws IllegalArgumentException when the output does not fit the task (shape, a click probability outside [0, 1])
     */
    String[] add(INDArray scores, INDArray labels, long first) {
        int n = (int) labels.size(0);
        String[] lines = new String[n];
        examples += n;
        if (task == Task.CLASSIFICATION) {
            long[] predicted = scores.argMax(1).castTo(DataType.INT64).toLongVector();
            long[] truth = labels.argMax(1).castTo(DataType.INT64).toLongVector();
            for (int i = 0; i < n; i++) {
                correct += predicted[i] == truth[i] ? 1 : 0;
                lines[i] = predicted[i] + "," + truth[i];
            }
            return lines;
        }
        if (scores.length() != labels.length()) {
            throw new IllegalArgumentException("a " + task.name().toLowerCase(Locale.ROOT) + " model predicts one value"
                    + " per label; for labels " + java.util.Arrays.toString(labels.shape()) + " the prediction has shape "
                    + java.util.Arrays.toString(scores.shape()));
        }
        double[] p = scores.castTo(DataType.DOUBLE).reshape(-1).toDoubleVector();
        double[] y = labels.castTo(DataType.DOUBLE).reshape(-1).toDoubleVector();
        if (task == Task.BINARY) {
            clicks = clicks.plus(ClickHistogram.of(p, y, first));
        } else {
            for (int i = 0; i < p.length; i++) {
                double error = p[i] - y[i];
                squared += error * error;
                absolute += Math.abs(error);
            }
            targets += p.length;
        }
        for (int i = 0; i < n; i++) {
            lines[i] = (float) p[i] + "," + (float) y[i];
        }
        return lines;
    }

    /** @return the result line, e.g. {@code accuracy: 0.9871 (9871/10000)} */
    String summary() {
        return switch (task) {
            case CLASSIFICATION -> String.format(Locale.ROOT, "accuracy: %.4f (%d/%d)",
                    examples == 0 ? Double.NaN : (double) correct / examples, correct, examples);
            case REGRESSION -> String.format(Locale.ROOT, "rmse: %.4f, mae: %.4f (%d targets)",
                    targets == 0 ? Double.NaN : Math.sqrt(squared / targets),
                    targets == 0 ? Double.NaN : absolute / targets, targets);
            case BINARY -> String.format(Locale.ROOT, "auc: %.4f, log loss: %.4f, accuracy: %.4f (%d examples)",
                    clicks.auc(), clicks.logLoss(), examples == 0 ? Double.NaN : (double) clicks.correct() / examples,
                    examples);
        };
    }

    /** @return examples whose class (or click at 0.5) was right; 0 for a regression */
    long correct() {
        return task == Task.BINARY ? clicks.correct() : correct;
    }

    /** @return examples scored */
    long examples() {
        return examples;
    }
}
