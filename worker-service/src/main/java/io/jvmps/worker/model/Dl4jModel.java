package io.jvmps.worker.model;

import io.jvmps.client.train.StepResult;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.deeplearning4j.nn.gradient.Gradient;
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
 * A Deeplearning4j network ({@code MultiLayerNetwork}) saved by DL4J's {@code ModelSerializer}, trained
 * through the servers as it is: every entry of the network's parameter table ({@code 0_W}, {@code 0_b},
 * {@code 1_W}, ... in layer order) is a parameter, the values in the file are the initial ones, and each
 * step takes the network's own gradient (its loss layer, activations and regularization) averaged over the
 * batch; the servers' optimizer replaces the network's updater. The network takes {@code [n, d]} float
 * features (a convolutional network declares {@code InputType.convolutionalFlat}) and gives {@code [n, k]}
 * class scores. Exported as a DL4J zip ({@code MultiLayerNetwork.load(file, false)} reads it). Methods
 * are synchronized.
 */
public final class Dl4jModel implements TrainableModel {
    /** The export format's name in {@code model.json}. */
    public static final String FORMAT = "dl4j";
    /** The exported file's name. */
    public static final String FILE = "model.zip";

    private final String label;
    private final MultiLayerNetwork net;
    private final List<ParamSpec> params;
    private final Map<String, INDArray> saved;
    private final int inputSize;
    private final int numClasses;
    private Placement placement = Placement.allOnPs();

    private Dl4jModel(String label, MultiLayerNetwork net, int inputSize, int numClasses) {
        this.label = label;
        this.net = net;
        this.inputSize = inputSize;
        this.numClasses = numClasses;
        List<ParamSpec> specs = new ArrayList<>();
        Map<String, INDArray> values = new LinkedHashMap<>();
        net.paramTable().forEach((name, value) -> {
            specs.add(new ParamSpec(name, value.shape()));
            values.put(name, value.dup('c'));
        });
        if (specs.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has no parameters to train");
        }
        this.params = List.copyOf(specs);
        this.saved = values;
    }

    /** @return whether the file is a DL4J model zip (it holds {@code configuration.json} and {@code coefficients.bin}) */
    public static boolean isDl4jFile(Path file) {
        try (ZipFile zip = new ZipFile(file.toFile())) {
            return zip.getEntry("configuration.json") != null && zip.getEntry("coefficients.bin") != null;
        } catch (IOException e) {
            return false; // not a zip: e.g. a SameDiff file
        }
    }

    /**
     * @return the parameters of the network in a DL4J zip, in its parameter table's order
     * @throws PsException INVALID_ARGUMENT when the file is no MultiLayerNetwork
     */
    public static List<ParamSpec> paramsOf(Path file) {
        List<ParamSpec> specs = new ArrayList<>();
        read(file).paramTable().forEach((name, value) -> specs.add(new ParamSpec(name, value.shape())));
        return specs;
    }

    private static MultiLayerNetwork read(Path file) {
        try {
            return MultiLayerNetwork.load(file.toFile(), false);
        } catch (IOException | RuntimeException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: " + file + " is not a DL4J "
                    + "MultiLayerNetwork saved by ModelSerializer (" + e.getMessage() + ")");
        }
    }

    /**
     * Loads a DL4J network and checks it classifies {@code inputSize} features into {@code numClasses} classes.
     *
     * @throws PsException INVALID_ARGUMENT naming the file and the cause: not a MultiLayerNetwork, no
     *                     parameters, another data type than float32, or a forward pass of one example that
     *                     fails or gives another width than the classes
     */
    public static Dl4jModel load(Path file, int inputSize, int numClasses) {
        String label = "DL4J network " + file.getFileName();
        MultiLayerNetwork net = read(file);
        if (net.params().dataType() != DataType.FLOAT) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " holds " + net.params().dataType()
                    + " parameters; build it with .dataType(DataType.FLOAT)");
        }
        INDArray out;
        try {
            out = net.output(Nd4j.zeros(DataType.FLOAT, 1, inputSize), false);
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
        net.getParam(name).assign(value.castTo(DataType.FLOAT).reshape('c', spec.shape()));
    }

    @Override
    public synchronized INDArray param(String name) {
        spec(name);
        return net.getParam(name).dup('c');
    }

    /**
     * The network's gradient of its mean loss: DL4J's backward pass gives the batch's sum (its updater
     * divides by the batch), so each gradient is divided by the batch size here.
     */
    @Override
    public synchronized StepResult gradients(INDArray features, INDArray labels) {
        net.setInput(features.castTo(DataType.FLOAT));
        net.setLabels(labels.castTo(DataType.FLOAT));
        net.computeGradientAndScore();
        Gradient gradient = net.gradient();
        long n = features.size(0);
        Map<String, INDArray> out = new LinkedHashMap<>();
        for (ParamSpec p : params) {
            INDArray g = gradient.getGradientFor(p.name());
            if (g == null) {
                throw new PsException(ErrorCode.INTERNAL, label + " gave no gradient for " + p.name());
            }
            out.put(p.name(), g.dup('c').divi(n));
        }
        double loss = net.score();
        net.clear();
        return new StepResult(loss, out);
    }

    @Override
    public synchronized INDArray predict(INDArray features) {
        return net.output(features.castTo(DataType.FLOAT), false);
    }

    /** Writes the network with its current values as a DL4J zip (no updater state), replaced whole. */
    @Override
    public synchronized void save(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            ModelSerializer.writeModel(net, tmp.toFile(), false);
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
