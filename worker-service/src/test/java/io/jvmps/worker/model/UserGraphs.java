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

    /**
     * A rating factorisation a user could save: {@code prediction = mean + users[user] . items[item]} with int64
     * placeholders {@code user} and {@code item}, tables {@code users [10, 3]} and {@code items [20, 3]}, a dense
     * {@code mean [1, 1]}, label {@code label [-1, 1]} and squared-error {@code loss}.
     *
     * @return the path written
     */
    public static Path ratings(Path file) {
        SameDiff sd = SameDiff.create();
        SDVariable user = sd.placeHolder("user", DataType.INT64, -1);
        SDVariable item = sd.placeHolder("item", DataType.INT64, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable users = sd.var("users", Nd4j.zeros(DataType.FLOAT, 10, 3));
        SDVariable items = sd.var("items", Nd4j.zeros(DataType.FLOAT, 20, 3));
        SDVariable mean = sd.var("mean", Nd4j.valueArrayOf(new long[] {1, 1}, 3f));
        SDVariable prediction = sd.gather(users, user, 0).mul(sd.gather(items, item, 0)).sum(true, 1).add(mean)
                .rename("prediction");
        SDVariable error = prediction.sub(label);
        error.mul(error).mean().rename("loss");
        sd.save(file.toFile(), false);
        return file;
    }

    /**
     * A sparse logistic regression over LibSVM features a user could save: {@code logit = sum(weights[x] * x_values)
     * + bias} with int64 placeholder {@code x [-1, -1]}, float {@code x_values [-1, -1]}, table {@code weights [features,
     * 1]}, a dense {@code bias [1, 1]}, click label {@code label [-1, 1]}, {@code prediction} (the sigmoid) and log loss
     * {@code loss}.
     *
     * @return the path written
     */
    public static Path sparseLogistic(Path file, int features) {
        SameDiff sd = SameDiff.create();
        SDVariable ids = sd.placeHolder("x", DataType.INT64, -1, -1);
        SDVariable values = sd.placeHolder("x_values", DataType.FLOAT, -1, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
        SDVariable weights = sd.var("weights", Nd4j.zeros(DataType.FLOAT, features, 1));
        SDVariable bias = sd.var("bias", Nd4j.zeros(DataType.FLOAT, 1, 1));
        SDVariable logit = sd.gather(weights, ids, 0).sum(2).mul(values).sum(true, 1).add(bias);
        sd.nn().sigmoid(logit).rename("prediction");
        sd.nn().softplus(logit).sub(label.mul(logit)).mean().rename("loss");
        sd.save(file.toFile(), false);
        return file;
    }
}
