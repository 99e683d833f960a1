package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.UncheckedIOException;
import java.nio.file.Path;
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
 * {@code calculateGradientsAndOutputs} (fresh, batch-averaged arrays), never from {@code sd.fit}: the
 * {@link SameDiffGraph} does every pass. Thread-safe (the graph serves one call at a time).
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
    private final Map<String, ParamDef> defs;
    private final SameDiffGraph graph;
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
        this(modelName, SameDiffGraph.of(build(modelName, inputSize, numClasses, params, graph), GraphNames.DEFAULT,
                modelName, params.stream().map(ParamDef::name).toList()), params);
    }

    /**
     * Wraps a graph that is already checked (see {@link SameDiffGraph#of}).
     *
     * @param modelName name used in error messages
     * @param graph     the graph; this model owns it from now on
     */
    protected SameDiffModel(String modelName, SameDiffGraph graph) {
        this(modelName, graph, List.of());
    }

    private SameDiffModel(String modelName, SameDiffGraph graph, List<ParamDef> params) {
        this.modelName = modelName;
        this.graph = graph;
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
        return graph.params();
    }

    @Override
    public void place(Placement placement) {
        this.placement = placement.check(modelName, graph.params());
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
        return graph.names();
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
    public void save(Path file) {
        graph.save(file);
    }

    @Override
    public void setParam(String name, INDArray value) {
        graph.setParam(name, value);
    }

    @Override
    public INDArray param(String name) {
        return graph.param(name);
    }

    @Override
    public StepResult gradients(INDArray features, INDArray labels) {
        return graph.gradients(features, labels);
    }

    /**
     * @return the mean loss of a batch, without gradients (a forward pass only)
     */
    public double loss(INDArray features, INDArray labels) {
        return graph.loss(features, labels);
    }

    @Override
    public INDArray predict(INDArray features) {
        return graph.predict(features);
    }

    @Override
    public int inputSize() {
        return graph.inputSize();
    }

    @Override
    public int numClasses() {
        return graph.numClasses();
    }

    @Override
    public String toString() {
        return modelName + graph.params();
    }
}
