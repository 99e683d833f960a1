package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.List;
import java.util.Map;

/**
 * The worker's only view of a model: an ordered list of dense float32 parameters, a way to set
 * them, and batch gradients. The training loop pulls parameters from the servers, calls
 * {@link #setParam}, computes {@link #gradients} and pushes them. Implementations are not meant to
 * be used from several threads at once.
 */
public interface TrainableModel {

    /** @return trainable parameters in a fixed order (the order of slice keys); names are unique */
    List<ParamSpec> params();

    /**
     * @param seed initialisation seed
     * @return fresh float32 arrays, one per parameter in {@link #params()} order, the same for the same
     *         seed in every process; the model itself is not changed
     */
    Map<String, INDArray> initialParams(long seed);

    /**
     * Copies {@code value} into the parameter's variable. A value with the right element count but
     * another shape (e.g. a flat vector) is read in row-major order.
     *
     * @throws io.jvmps.common.protocol.PsException UNKNOWN_KEY for an unknown name, SHAPE_MISMATCH for a
     *                                              wrong element count; the model is unchanged then
     */
    void setParam(String name, INDArray value);

    /** @return a copy of the parameter's current value, with its declared shape */
    INDArray param(String name);

    /**
     * @param features {@code [n, inputSize()]}
     * @param labels   one-hot {@code [n, numClasses()]}
     * @return the mean loss of the batch and its gradients: fresh arrays with the parameters' shapes,
     *         averaged over the batch, in {@link #params()} order
     */
    StepResult gradients(INDArray features, INDArray labels);

    /**
     * @param features {@code [n, inputSize()]}
     * @return class probabilities {@code [n, numClasses()]}
     */
    INDArray predict(INDArray features);

    /**
     * Writes the model with its current parameter values in its own format ({@link #fileFormat}): for
     * SameDiff models a model file that {@code SameDiff.load(file, false)} reads in a program that knows
     * nothing of jvm-ps.
     *
     * @param file where to write; its folder must exist; replaced whole or not at all
     * @throws java.io.UncheckedIOException when it cannot be written
     */
    void save(java.nio.file.Path file);

    /** @return the format {@link #save} writes, as {@code model.json} names it: {@code samediff} unless overridden */
    default String fileFormat() {
        return "samediff";
    }

    /** @return the file name an export gives {@link #save}'s file: {@code model.sd} unless overridden */
    default String fileName() {
        return "model.sd";
    }

    /** @return number of input features per example */
    int inputSize();

    /** @return number of classes */
    int numClasses();

    /**
     * Declares which parameters the parameter servers manage (MindSpore's {@code set_param_ps}), e.g.
     * {@code model.place(Placement.workerLocal("b"))}. Call before training starts.
     *
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT naming an unknown parameter; the
     *                                              placement is unchanged then
     */
    void place(Placement placement);

    /** @return the current placement; {@link Placement#allOnPs()} unless {@link #place} changed it */
    Placement placement();

    /** @return the PS-managed parameters, in {@link #params()} order (the shard map covers exactly these) */
    default List<ParamSpec> psParams() {
        return placement().psParams(params());
    }

    /** @return the worker-local parameters, in {@link #params()} order */
    default List<ParamSpec> localParams() {
        return placement().localParams(params());
    }

    /** Sets every parameter in the map (see {@link #setParam}). */
    default void setParams(Map<String, INDArray> values) {
        values.forEach(this::setParam);
    }

    /**
     * @param data      examples to classify
     * @param batchSize examples per forward pass, &gt;= 1
     * @return how many examples have their label as the arg-max prediction
     */
    default long evaluateCorrect(Examples data, int batchSize) {
        return evaluateCorrect(data, 0, data.size(), batchSize);
    }

    /**
     * @param data      examples to classify
     * @param first     first example, inclusive
     * @param end       last example, exclusive
     * @param batchSize examples per forward pass, &gt;= 1
     * @return how many of the examples {@code [first, end)} have their label as the arg-max prediction
     */
    default long evaluateCorrect(Examples data, int first, int end, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        long correct = 0;
        for (int from = first; from < end; from += batchSize) {
            LabeledData batch = data.rows(from, Math.min(end, from + batchSize));
            INDArray predicted = predict(batch.features()).argMax(1);
            INDArray truth = batch.labels().argMax(1);
            correct += predicted.eq(truth).castTo(DataType.INT64).sumNumber().longValue();
        }
        return correct;
    }
}
