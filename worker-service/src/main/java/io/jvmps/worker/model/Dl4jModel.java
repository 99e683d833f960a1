package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.deeplearning4j.nn.api.Model;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.graph.ComputationGraph;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.util.ModelSerializer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

/**
 * A Deeplearning4j network saved by DL4J's {@code ModelSerializer} (a {@code MultiLayerNetwork}, or a
 * {@code ComputationGraph} with one input and one output, which is what Keras import gives for a functional
 * model), trained through the servers as it is: every entry of the network's parameter table ({@code 0_W},
 * {@code 0_b}, {@code 1_W}, ... in layer order; a graph's by vertex name) is a parameter, the values in the file are the initial ones, and each
 * step takes the network's own gradient (its loss layer, activations and regularization) averaged over the
 * batch; the servers' optimizer replaces the network's updater. The network takes {@code [n, d]} float
 * features (a convolutional network declares {@code InputType.convolutionalFlat}) and gives {@code [n, k]}
 * class scores. Exported as a DL4J zip ({@code MultiLayerNetwork.load} or {@code ComputationGraph.load}
 * reads it, as the original). Methods are synchronized.
 */
public final class Dl4jModel implements TrainableModel {
    /** The export format's name in {@code model.json}. */
    public static final String FORMAT = "dl4j";
    /** The exported file's name. */
    public static final String FILE = "model.zip";

    private final String label;
    private final Network net;
    private final List<ParamSpec> params;
    private final Map<String, INDArray> saved;
    private final int inputSize;
    private final int numClasses;
    private Placement placement = Placement.allOnPs();

    private Dl4jModel(String label, Network net, int inputSize, int numClasses) {
        this.label = label;
        this.net = net;
        this.inputSize = inputSize;
        this.numClasses = numClasses;
        this.params = List.copyOf(paramsOf(net));
        if (params.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has no parameters to train");
        }
        this.saved = new LinkedHashMap<>();
        net.model().paramTable().forEach((name, value) -> saved.put(name, value.dup('c')));
    }

    /** @return whether the file is a DL4J model zip (it holds {@code configuration.json} and {@code coefficients.bin}) */
    public static boolean isDl4jFile(Path file) {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            return zip.getEntry("configuration.json") != null && zip.getEntry("coefficients.bin") != null;
        } catch (IOException e) {
            return false; // not a zip: e.g. a SameDiff file
        }
    }

    /** @return the network's parameters, in its parameter table's order */
    public static List<ParamSpec> paramsOf(Network net) {
        List<ParamSpec> specs = new ArrayList<>();
        net.model().paramTable().forEach((name, value) -> specs.add(new ParamSpec(name, value.shape())));
        return specs;
    }

    /**
     * Reads a DL4J zip as a MultiLayerNetwork, or else as a ComputationGraph of one input and one output.
     *
     * @throws PsException INVALID_ARGUMENT when it is neither
     */
    public static Network read(Path file) {
        try {
            return new Layers(MultiLayerNetwork.load(file.toFile(), false));
        } catch (IOException | RuntimeException notLayers) {
            ComputationGraph graph;
            try {
                graph = ComputationGraph.load(file.toFile(), false);
            } catch (IOException | RuntimeException e) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: " + file + " is neither a DL4J "
                        + "MultiLayerNetwork nor a ComputationGraph saved by ModelSerializer (" + e.getMessage() + ")");
            }
            if (graph.getNumInputArrays() != 1 || graph.getNumOutputArrays() != 1) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: " + file + " is a ComputationGraph"
                        + " of " + graph.getNumInputArrays() + " inputs and " + graph.getNumOutputArrays()
                        + " outputs; the worker trains graphs of one input and one output");
            }
            return new Graph(graph);
        }
    }

    /** A loaded network: the two DL4J kinds behind one surface. */
    public interface Network {
        Model model();

        /** Sets one batch's features and one-hot labels for {@link #backward}. */
        void setBatch(INDArray features, INDArray labels);

        /** Forward and backward pass over the batch set last: fills the model's gradient and score. */
        void backward();

        /** @return class scores in inference mode */
        INDArray output(INDArray features);
    }

    private record Layers(MultiLayerNetwork model) implements Network {
        @Override
        public void setBatch(INDArray features, INDArray labels) {
            model.setInput(features);
            model.setLabels(labels);
        }

        @Override
        public void backward() {
            model.computeGradientAndScore();
        }

        @Override
        public INDArray output(INDArray features) {
            return model.output(features, false);
        }
    }

    private record Graph(ComputationGraph model) implements Network {
        @Override
        public void setBatch(INDArray features, INDArray labels) {
            model.setInputs(features);
            model.setLabels(labels);
        }

        @Override
        public void backward() {
            model.computeGradientAndScore();
        }

        @Override
        public INDArray output(INDArray features) {
            return model.outputSingle(false, features);
        }
    }

    /**
     * Loads a DL4J network and checks it classifies {@code inputSize} features into {@code numClasses} classes.
     *
     * @throws PsException INVALID_ARGUMENT naming the file and the cause: no network (see {@link #read}), no
     *                     parameters, another data type than float32, or a forward pass of one example that
     *                     fails or gives another width than the classes
     */
    public static Dl4jModel load(Path file, int inputSize, int numClasses) {
        return of(read(file), file, inputSize, numClasses);
    }

    /** The same checks on a network already read from {@code file} (see {@link #read}). */
    public static Dl4jModel of(Network net, Path file, int inputSize, int numClasses) {
        String label = "DL4J network " + file.getFileName();
        if (net.model().params().dataType() != DataType.FLOAT) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " holds " + net.model().params().dataType()
                    + " parameters; build it with .dataType(DataType.FLOAT)");
        }
        INDArray out;
        try {
            out = net.output(Nd4j.zeros(DataType.FLOAT, 1, inputSize));
        } catch (RuntimeException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " cannot take examples of " + inputSize
                    + " features (" + e.getMessage() + "); a convolutional network declares "
                    + "setInputType(InputType.convolutionalFlat(height, width, channels))");
        }
        if (out.rank() != 2 || out.size(1) != numClasses) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " gives scores of shape "
                    + java.util.Arrays.toString(out.shape()) + " for one example; the data has " + numClasses
                    + " classes");
        }
        return new Dl4jModel(label, net, inputSize, numClasses);
    }

    @Override
    public List<ParamSpec> params() {
        return params;
    }

    /** @return the values saved in the file, whatever the seed: every worker starts from them */
    @Override
    public Map<String, INDArray> initialParams(long seed) {
        Map<String, INDArray> out = new LinkedHashMap<>();
        saved.forEach((name, value) -> out.put(name, value.dup('c')));
        return out;
    }

    @Override
    public synchronized void setParam(String name, INDArray value) {
        ParamSpec spec = spec(name);
        if (value.length() != spec.elements()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, label + ": parameter " + spec + " given "
                    + value.length() + " elements");
        }
        net.model().getParam(name).assign(value.castTo(DataType.FLOAT).reshape('c', spec.shape()));
    }

    @Override
    public synchronized INDArray param(String name) {
        spec(name);
        return net.model().getParam(name).dup('c');
    }

    /**
     * The network's gradient of its mean loss: DL4J's backward pass gives the batch's sum (its updater
     * divides by the batch), so each gradient is divided by the batch size here.
     */
    @Override
    public synchronized StepResult gradients(INDArray features, INDArray labels) {
        Model model = net.model();
        net.setBatch(features.castTo(DataType.FLOAT), labels.castTo(DataType.FLOAT));
        net.backward();
        Gradient gradient = model.gradient();
        long n = features.size(0);
        Map<String, INDArray> out = new LinkedHashMap<>();
        for (ParamSpec p : params) {
            INDArray g = gradient.getGradientFor(p.name());
            if (g == null) {
                throw new PsException(ErrorCode.INTERNAL, label + " gave no gradient for " + p.name());
            }
            out.put(p.name(), g.dup('c').divi(n));
        }
        double loss = model.score();
        model.clear();
        return new StepResult(loss, out);
    }

    @Override
    public synchronized INDArray predict(INDArray features) {
        return net.output(features.castTo(DataType.FLOAT));
    }

    /** Writes the network with its current values as a DL4J zip (no updater state), replaced whole. */
    @Override
    public synchronized void save(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            ModelSerializer.writeModel(net.model(), tmp.toFile(), false);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file.toAbsolutePath(), e);
        }
    }

    @Override
    public String fileFormat() {
        return FORMAT;
    }

    @Override
    public String fileName() {
        return FILE;
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
    public synchronized void place(Placement placement) {
        this.placement = placement.check(label, params);
    }

    @Override
    public synchronized Placement placement() {
        return placement;
    }

    @Override
    public String toString() {
        return label + params;
    }

    private ParamSpec spec(String name) {
        for (ParamSpec p : params) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new PsException(ErrorCode.UNKNOWN_KEY, label + " has no parameter '" + name + "'; its parameters: "
                + params.stream().map(ParamSpec::name).toList());
    }
}
