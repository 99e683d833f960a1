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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Base of the SameDiff models: a graph with a float32 feature placeholder {@code [n, d]}, a one-hot
 * label placeholder {@code [n, k]}, one float32 variable per parameter, class scores and a scalar
 * loss, named by {@link GraphNames}. The built-in models build their graph
 * ({@value #INPUT}, {@value #LABEL}, {@value #PROBABILITIES}, the mean softmax cross-entropy
 * {@value #LOSS}); {@link FileModel} loads one from a file. Gradients come from
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
    private final Map<String, ParamDef> defs;
    private final List<ParamSpec> specs;
    private final List<String> names;
    private final GraphNames graph;
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
        this(modelName, build(modelName, inputSize, numClasses, params, graph), GraphNames.DEFAULT,
                params.stream().map(ParamDef::spec).toList(), inputSize, numClasses, params);
    }

    /**
     * Wraps a graph that is already built (its loss variable set and gradient function created).
     *
     * @param modelName  name used in error messages
     * @param sd         the graph; this model owns it from now on
     * @param graph      the names of its input, label, loss and prediction variables
     * @param specs      its trainable float32 variables, in their fixed order
     * @param inputSize  features per example
     * @param numClasses number of classes
     */
    protected SameDiffModel(String modelName, SameDiff sd, GraphNames graph, List<ParamSpec> specs, int inputSize,
                            int numClasses) {
        this(modelName, sd, graph, specs, inputSize, numClasses, List.of());
    }

    private SameDiffModel(String modelName, SameDiff sd, GraphNames graph, List<ParamSpec> specs, int inputSize,
                          int numClasses, List<ParamDef> params) {
        this.modelName = modelName;
        this.inputSize = inputSize;
        this.numClasses = numClasses;
        this.sd = sd;
        this.graph = graph;
        this.specs = List.copyOf(specs);
        this.names = specs.stream().map(ParamSpec::name).toList();
        Map<String, ParamDef> byName = new LinkedHashMap<>();
        params.forEach(def -> byName.put(def.name(), def));
        this.defs = byName;
    }

    private static SameDiff build(String modelName, int inputSize, int numClasses, List<ParamDef> params,
                                  GraphDefinition graph) {
        Map<String, ParamDef> unique = new LinkedHashMap<>();
        for (ParamDef def : params) {
            if (unique.putIfAbsent(def.name(), def) != null) {
                throw new IllegalArgumentException(modelName + " declares parameter " + def.name() + " twice");
            }
        }
        SameDiff sd = SameDiff.create();
        SDVariable input = sd.placeHolder(INPUT, DataType.FLOAT, -1, inputSize);
        SDVariable label = sd.placeHolder(LABEL, DataType.FLOAT, -1, numClasses);
        Map<String, INDArray> initial = sample(params, 0L);
        Map<String, SDVariable> vars = new LinkedHashMap<>();
        for (ParamDef def : params) {
            vars.put(def.name(), sd.var(def.name(), initial.get(def.name())));
        }
        SDVariable logits = graph.logits(sd, input, Map.copyOf(vars));
        sd.nn().softmax(PROBABILITIES, logits, 1);
        sd.loss().softmaxCrossEntropy(LOSS, label, logits, null, LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        sd.setLossVariables(LOSS);
        sd.createGradFunction();
        return sd;
    }

    private static Map<String, INDArray> sample(List<ParamDef> params, long seed) {
        Random random = new Random(seed);
        Map<String, INDArray> out = new LinkedHashMap<>();
        for (ParamDef def : params) {
            float[] values = def.init().sample(random, (int) def.spec().elements(), def.fanIn(), def.fanOut());
            out.put(def.name(), Nd4j.create(values, def.spec().shape(), DataType.FLOAT));
        }
        return out;
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

    /** Samples the built-in model's parameter definitions; a model from a file overrides this. */
    @Override
    public Map<String, INDArray> initialParams(long seed) {
        return sample(List.copyOf(defs.values()), seed);
    }

    /** @return the names of the graph's input, label, loss and prediction variables */
    public GraphNames graphNames() {
        return graph;
    }

    /**
     * Writes the graph with the parameters' current values as a SameDiff model file (SameDiff's own
     * format, without optimizer state), which {@code SameDiff.load(file, false)} reads back in any
     * program. The file appears whole or not at all: it is written beside and then moved into place.
     *
     * @param file where to write; its folder must exist
     * @throws UncheckedIOException when the file cannot be written
     */
    @Override
    public synchronized void save(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            sd.save(tmp.toFile(), false);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the model to " + file, e);
        } catch (RuntimeException e) {
            throw new UncheckedIOException("cannot write the model to " + file + ": " + e.getMessage(),
                    new IOException(e));
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the move failed too; its error is the one reported
            }
        }
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
        OutAndGrad result = sd.calculateGradientsAndOutputs(placeholders, List.of(graph.loss()), names);
        Map<String, INDArray> gradients = new LinkedHashMap<>();
        for (String name : names) {
            INDArray g = result.getGradients().get(name);
            if (g == null) {
                throw new PsException(ErrorCode.INTERNAL, modelName + " produced no gradient for " + name);
            }
            gradients.put(name, g);
        }
        return new StepResult(result.getOutputs().get(graph.loss()).meanNumber().doubleValue(), gradients);
    }

    /**
     * @return the mean loss of a batch, without gradients (a forward pass only)
     */
    public synchronized double loss(INDArray features, INDArray labels) {
        FreshSessionArrays.apply(sd);
        return sd.output(placeholders(features, labels), graph.loss()).get(graph.loss()).meanNumber().doubleValue();
    }

    @Override
    public synchronized INDArray predict(INDArray features) {
        checkFeatures(features);
        FreshSessionArrays.apply(sd);
        return sd.output(Map.of(graph.input(), asFloat(features)), graph.prediction()).get(graph.prediction());
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
        return Map.of(graph.input(), asFloat(features), graph.label(), asFloat(labels));
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
        int index = names.indexOf(name);
        if (index < 0) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, modelName + " has no parameter '" + name
                    + "'; its parameters are " + new ArrayList<>(names));
        }
        return specs.get(index);
    }
}
