package io.jvmps.worker.linear;

import io.jvmps.client.dataset.SparseBatch;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * Softmax regression over sparse features whose weights are rows of a sparse table:
 * {@code logits[r] = b + sum over r's features j of x_j * W[j]}, with {@code W[j]} the table's row for
 * feature column {@code j} ({@code classes} floats) and {@code b} a dense vector of {@code classes}. The
 * loss is the batch's mean cross-entropy, the same as the dense {@code SOFTMAX} model's, so both train to
 * the same weights on the same data. Plain float arithmetic on the batch's non-zeros: the cost grows with
 * the non-zeros, not with the feature count. Stateless and thread-safe.
 */
public final class SparseSoftmax {
    private final int classes;

    /**
     * @param classes classes, &gt;= 2 (the table's row width and the bias length)
     * @throws PsException INVALID_ARGUMENT for fewer than 2 classes
     */
    public SparseSoftmax(int classes) {
        if (classes < 2) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "a softmax needs >= 2 classes, got " + classes);
        }
        this.classes = classes;
    }

    /** @return classes, the width of a weight row */
    public int classes() {
        return classes;
    }

    /**
     * One forward and backward pass.
     *
     * @param rowGradients per stored value of the batch ({@code nonZeros * classes}, row-major): the loss's
     *                     gradient for that value's weight row; the lookup sums repeats of an id
     * @param biasGradient the loss's gradient for the bias ({@code classes})
     * @param loss         the batch's mean cross-entropy
     */
    public record Step(float[] rowGradients, float[] biasGradient, double loss) {
    }

    /**
     * @param batch the examples
     * @param rows  the weight row of each stored value ({@code nonZeros * classes}, row-major)
     * @param bias  the bias ({@code classes})
     */
    public Step step(SparseBatch batch, float[] rows, float[] bias) {
        int n = batch.size();
        float[] probabilities = probabilities(batch, rows, bias);
        float[] rowGradients = new float[rows.length];
        float[] biasGradient = new float[classes];
        double loss = 0;
        float scale = 1f / n;
        float[] delta = new float[classes];
        for (int r = 0; r < n; r++) {
            int label = batch.labels()[r];
            loss -= Math.log(Math.max(probabilities[r * classes + label], 1e-30f));
            for (int c = 0; c < classes; c++) {
                delta[c] = (probabilities[r * classes + c] - (c == label ? 1f : 0f)) * scale;
                biasGradient[c] += delta[c];
            }
            for (int k = batch.rowStarts()[r]; k < batch.rowStarts()[r + 1]; k++) {
                float x = batch.values()[k];
                for (int c = 0; c < classes; c++) {
                    rowGradients[k * classes + c] = x * delta[c];
                }
            }
        }
        return new Step(rowGradients, biasGradient, loss / n);
    }

    /** @return each example's most probable class (the first of equals) */
    public int[] predict(SparseBatch batch, float[] rows, float[] bias) {
        float[] logits = logits(batch, rows, bias);
        int[] out = new int[batch.size()];
        for (int r = 0; r < out.length; r++) {
            int best = 0;
            for (int c = 1; c < classes; c++) {
                if (logits[r * classes + c] > logits[r * classes + best]) {
                    best = c;
                }
            }
            out[r] = best;
        }
        return out;
    }

    /** @return the examples' class probabilities ({@code size * classes}, row-major) */
    public float[] probabilities(SparseBatch batch, float[] rows, float[] bias) {
        float[] p = logits(batch, rows, bias);
        for (int r = 0; r < batch.size(); r++) {
            float max = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < classes; c++) {
                max = Math.max(max, p[r * classes + c]);
            }
            double sum = 0;
            for (int c = 0; c < classes; c++) {
                p[r * classes + c] = (float) Math.exp(p[r * classes + c] - max);
                sum += p[r * classes + c];
            }
            for (int c = 0; c < classes; c++) {
                p[r * classes + c] /= (float) sum;
            }
        }
        return p;
    }

    private float[] logits(SparseBatch batch, float[] rows, float[] bias) {
        if (rows.length != batch.nonZeros() * classes || bias.length != classes) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "expected " + batch.nonZeros() + " rows of " + classes
                    + " and a bias of " + classes + ", got " + rows.length + " floats and " + bias.length);
        }
        float[] logits = new float[batch.size() * classes];
        for (int r = 0; r < batch.size(); r++) {
            System.arraycopy(bias, 0, logits, r * classes, classes);
            for (int k = batch.rowStarts()[r]; k < batch.rowStarts()[r + 1]; k++) {
                float x = batch.values()[k];
                for (int c = 0; c < classes; c++) {
                    logits[r * classes + c] += x * rows[k * classes + c];
                }
            }
        }
        return logits;
    }
}
