package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.api.OutAndGrad;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Base of the SameDiff models: a graph with float32 placeholders {@value #INPUT} {@code [n, d]} and
 * {@value #LABEL} {@code [n, k]}, one variable per parameter, class probabilities
 * {@value #PROBABILITIES} and the mean softmax cross-entropy {@value #LOSS}. Gradients come from
 * {@code calculateGradientsAndOutputs} (fresh, batch-averaged arrays), never from {@code sd.fit}.
 * Methods are synchronized: one SameDiff graph serves one call at a time.
 */
public abstract class SameDiffModel implements TrainableModel {
    /** Name of the feature placeholder. */
    public static final String INPUT = "input";
    /** Name of the one-hot label placeholder. */
    public static final String LABEL = "label";
    /** Name of the scalar mean loss. */
    public static final String LOSS = "loss";
    /** Name of the softmax output. */
    public static final String PROBABILITIES = "probabilities";

    private final String modelName;
    private final int inputSize;
    private final int numClasses;
    private final Map<String, ParamDef> defs = new LinkedHashMap<>();
    private final List<ParamSpec> specs;
    private final List<String> names;
    private final SameDiff sd;
    private volatile Placement placement = Placement.allOnPs();

    /**
     * Builds the graph; parameters start at {@code initialParams(0)}.
     *
     * @param modelName  name used in error messages
     * @param inputSize  features per example
     * @param numClasses number of classes
     * @param params     parameter definitions in their fixed order; names unique
     * @param graph      input placeholder -&gt; logits
     */
    protected SameDiffModel(String modelName, int inputSize, int numClasses, List<ParamDef> params,
                            GraphDefinition graph) {
        this.modelName = modelName;
        this.inputSize = inputSize;
        this.numClasses = numClasses;
        for (ParamDef def : params) {
            if (defs.putIfAbsent(def.name(), def) != null) {
                throw new IllegalArgumentException(modelName + " declares parameter " + def.name() + " twice");
            }
        }
        this.specs = params.stream().map(ParamDef::spec).toList();
        this.names = params.stream().map(ParamDef::name).toList();
        this.sd = SameDiff.create();
        SDVariable input = sd.placeHolder(INPUT, DataType.FLOAT, -1, inputSize);
        SDVariable label = sd.placeHolder(LABEL, DataType.FLOAT, -1, numClasses);
        Map<String, INDArray> initial = initialParams(0L);
        Map<String, SDVariable> vars = new LinkedHashMap<>();
        for (String name : names) {
            vars.put(name, sd.var(name, initial.get(name)));
        }
        SDVariable logits = graph.logits(sd, input, Map.copyOf(vars));
        sd.nn().softmax(PROBABILITIES, logits, 1);
        sd.loss().softmaxCrossEntropy(LOSS, label, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.setLossVariables(LOSS);
        sd.createGradFunction();
    }

    @Override
    public List<ParamSpec> params() {
        return specs;
    }

    @Override
    public void place(Placement placement) {
        this.placement = placement.check(modelName, specs);
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public Map<String, INDArray> initialParams(long seed) {
        Random random = new Random(seed);
        Map<String, INDArray> out = new LinkedHashMap<>();
        for (ParamDef def : defs.values()) {
            float[] values = def.init().sample(random, (int) def.spec().elements(), def.fanIn(), def.fanOut());
            out.put(def.name(), Nd4j.create(values, def.spec().shape(), DataType.FLOAT));
        }
        return out;
    }

    @Override
    public synchronized void setParam(String name, INDArray value) {
        ParamSpec spec = spec(name);
        if (value.length() != spec.elements()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, modelName + " parameter " + spec + " has "
                    + spec.elements() + " elements, got an array of shape " + Arrays.toString(value.shape()));
        }
        INDArray shaped = Arrays.equals(value.shape(), spec.shape()) ? value : value.reshape('c', spec.shape());
        sd.getVariable(name).getArr().assign(shaped);
    }

    @Override
    public synchronized INDArray param(String name) {
        spec(name);
        return sd.getVariable(name).getArr().dup();
    }

    @Override
    public synchronized StepResult gradients(INDArray features, INDArray labels) {
        Map<String, INDArray> placeholders = placeholders(features, labels);
        FreshSessionArrays.apply(sd);
        OutAndGrad result = sd.calculateGradientsAndOutputs(placeholders, List.of(LOSS), names);
        Map<String, INDArray> gradients = new LinkedHashMap<>();
        for (String name : names) {
            INDArray g = result.getGradients().get(name);
            if (g == null) {
                throw new PsException(ErrorCode.INTERNAL, modelName + " produced no gradient for " + name);
            }
            gradients.put(name, g);
        }
        return new StepResult(result.getOutputs().get(LOSS).getDouble(0), gradients);
    }

    /**
     * @return the mean loss of a batch, without gradients (a forward pass only)
     */
    public synchronized double loss(INDArray features, INDArray labels) {
        FreshSessionArrays.apply(sd);
        return sd.output(placeholders(features, labels), LOSS).get(LOSS).getDouble(0);
    }

    @Override
    public synchronized INDArray predict(INDArray features) {
        checkFeatures(features);
        FreshSessionArrays.apply(sd);
        return sd.output(Map.of(INPUT, asFloat(features)), PROBABILITIES).get(PROBABILITIES);
    }

    @Override
    public int inputSize() {
        return inputSize;
    }

    @Override
    public int numClasses() {
        return numClasses;
    }

    @Override
    public String toString() {
        return modelName + specs;
    }

    private Map<String, INDArray> placeholders(INDArray features, INDArray labels) {
        checkFeatures(features);
        if (labels.rank() != 2 || labels.size(1) != numClasses || labels.size(0) != features.size(0)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, modelName + " needs labels [" + features.size(0)
                    + ", " + numClasses + "], got " + Arrays.toString(labels.shape()));
        }
        return Map.of(INPUT, asFloat(features), LABEL, asFloat(labels));
    }

    private void checkFeatures(INDArray features) {
        if (features.rank() != 2 || features.size(1) != inputSize || features.size(0) < 1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, modelName + " needs features [n >= 1, " + inputSize
                    + "], got " + Arrays.toString(features.shape()));
        }
    }

    private static INDArray asFloat(INDArray array) {
        return array.dataType() == DataType.FLOAT ? array : array.castTo(DataType.FLOAT);
    }

    private ParamSpec spec(String name) {
        ParamDef def = defs.get(name);
        if (def == null) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, modelName + " has no parameter '" + name
                    + "'; its parameters are " + new ArrayList<>(defs.keySet()));
        }
        return def.spec();
    }
}
