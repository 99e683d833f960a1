package io.jvmps.client.train;

import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.util.function.Function;

/**
 * Scores a graph's predictions on one worker's shard of a test set, {@value #BATCH} examples per forward pass:
 * classes (arg-max against the one-hot label), real targets (error sums) or clicks (a {@link ClickHistogram}).
 * The shards' results add up to the whole set's. Stateless apart from its inputs; not thread-safe only as far as
 * the predictor is not.
 */
final class ShardScoring {
    static final int BATCH = 500;

    private final Function<LabeledData, INDArray> predict;

    /** @param predict the graph's prediction for rows ({@code [n, k]}) */
    ShardScoring(Function<LabeledData, INDArray> predict) {
        this.predict = predict;
    }

    /** @return examples of the range whose arg-max prediction is the arg-max of their label */
    long correct(Examples test, IndexRange range) {
        long correct = 0;
        for (int from = range.from(); from < range.to(); from += BATCH) {
            correct += correct(test.rows(from, Math.min(range.to(), from + BATCH)));
        }
        return correct;
    }

    /** @return how many of the batches' examples the prediction classifies correctly, of how many */
    SameDiffTrainer.Evaluation evaluate(Iterable<org.nd4j.linalg.dataset.DataSet> batches) {
        long correct = 0;
        long examples = 0;
        for (org.nd4j.linalg.dataset.DataSet batch : batches) {
            LabeledData rows = new LabeledData(batch.getFeatures(), batch.getLabels());
            correct += correct(rows);
            examples += rows.size();
        }
        return new SameDiffTrainer.Evaluation(correct, examples);
    }

    /** @return rows whose arg-max prediction is the arg-max of their label */
    long correct(LabeledData rows) {
        INDArray predicted = predict.apply(rows).argMax(1);
        return predicted.eq(rows.labels().argMax(1)).castTo(DataType.INT64).sumNumber().longValue();
    }

    /** @return the range's summed squared and absolute errors over every target */
    SameDiffTrainer.Regression regression(Examples test, IndexRange range) {
        double squared = 0;
        double absolute = 0;
        long targets = 0;
        for (int from = range.from(); from < range.to(); from += BATCH) {
            LabeledData rows = test.rows(from, Math.min(range.to(), from + BATCH));
            INDArray error = predict.apply(rows).castTo(DataType.DOUBLE).reshape(rows.labels().shape())
                    .sub(rows.labels().castTo(DataType.DOUBLE));
            squared += error.mul(error).sumNumber().doubleValue();
            absolute += Transforms.abs(error).sumNumber().doubleValue();
            targets += error.length();
        }
        return new SameDiffTrainer.Regression(squared, absolute, targets);
    }

    /**
     * @return the range's click histogram
     * @throws PsException INVALID_ARGUMENT when the graph does not predict one probability in [0, 1] per example, or
     *                     a label is not 0 or 1 (naming the example by its index in the test set)
     */
    ClickHistogram clicks(Examples test, IndexRange range) {
        ClickHistogram sum = ClickHistogram.empty();
        for (int from = range.from(); from < range.to(); from += BATCH) {
            LabeledData rows = test.rows(from, Math.min(range.to(), from + BATCH));
            INDArray p = predict.apply(rows);
            if (p.length() != rows.size() || rows.labels().length() != rows.size()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "a click model predicts one probability per example "
                        + "against a 0/1 label; for " + rows.size() + " examples the prediction has shape "
                        + java.util.Arrays.toString(p.shape()) + " and the labels "
                        + java.util.Arrays.toString(rows.labels().shape()));
            }
            try {
                sum = sum.plus(ClickHistogram.of(p.castTo(DataType.DOUBLE).toDoubleVector(),
                        rows.labels().castTo(DataType.DOUBLE).toDoubleVector(), from));
            } catch (IllegalArgumentException e) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "test " + e.getMessage());
            }
        }
        return sum;
    }
}
