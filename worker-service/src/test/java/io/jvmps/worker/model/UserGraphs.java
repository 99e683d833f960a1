package io.jvmps.worker.model;

import io.jvmps.client.train.GraphNames;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;

/** Graphs a user could build and save with SameDiff, with names other than the built-in models'. */
public final class UserGraphs {
    private UserGraphs() {
    }

    /** The names {@link #mlp} uses. */
    public static final GraphNames NAMES = new GraphNames("x", "y", "xent", "scores");

    /**
     * A two-layer perceptron {@code x [-1, in] -> relu(x W1 + b1) [hidden] -> logits [classes]} with softmax
     * {@code scores} and mean cross-entropy {@code xent}; also holds an INT64 constant, which is no parameter.
     *
     * @return the path written
     */
    public static Path mlp(Path file, int in, int hidden, int classes, long seed) {
        SameDiff sd = SameDiff.create();
        SDVariable x = sd.placeHolder("x", DataType.FLOAT, -1, in);
        SDVariable y = sd.placeHolder("y", DataType.FLOAT, -1, classes);
        Nd4j.getRandom().setSeed(seed);
        SDVariable w1 = sd.var("W1", Nd4j.randn(DataType.FLOAT, in, hidden).muli(Math.sqrt(2.0 / in)));
        SDVariable b1 = sd.var("b1", Nd4j.zeros(DataType.FLOAT, hidden));
        SDVariable w2 = sd.var("W2", Nd4j.randn(DataType.FLOAT, hidden, classes).muli(Math.sqrt(1.0 / hidden)));
        SDVariable b2 = sd.var("b2", Nd4j.zeros(DataType.FLOAT, classes));
        sd.constant("version", Nd4j.scalar(3L));
        SDVariable h = sd.nn().relu(x.mmul(w1).add(b1), 0);
        SDVariable logits = h.mmul(w2).add(b2);
        sd.nn().softmax("scores", logits, 1);
        sd.loss().softmaxCrossEntropy("xent", y, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.save(file.toFile(), false);
        return file;
    }
}
