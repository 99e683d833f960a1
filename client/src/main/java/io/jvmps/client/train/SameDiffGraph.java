package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.autodiff.samediff.api.OutAndGrad;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

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

/**
 * A SameDiff classification graph as a parameter server trains it: a float32 feature placeholder
 * {@code [-1, d]}, a one-hot label placeholder {@code [-1, k]}, a loss and a class-score variable (named by
 * {@link GraphNames}), and its trainable parameters: every float32 {@link VariableType#VARIABLE}, in the
 * order SameDiff lists them (the same in every process for the same graph) or one given. One forward/backward pass gives the mean loss and fresh gradient arrays (never
 * {@code sd.fit}, whose updater would train the values locally). Every run gives each op fresh output arrays
 * ({@link FreshSessionArrays}). Methods are synchronized: one graph serves one call at a time.
 */
public final class SameDiffGraph {
    private final String label;
    private final SameDiff sd;
    private final GraphNames names;
    private final List<ParamSpec> params;
    private final List<String> paramNames;
    private final int inputSize;
    private final int numClasses;
    private final boolean hasInput;
    private final GraphTables tables;
    /** What passes run on: the graph itself, or with tables its training copy ({@link GraphTables#trainingCopy}). */
    private final SameDiff compute;

    private SameDiffGraph(String label, SameDiff sd, GraphNames names, List<ParamSpec> params, int inputSize,
                          int numClasses, boolean hasInput, GraphTables tables, SameDiff compute) {
        this.hasInput = hasInput;
        this.tables = tables;
        this.compute = compute;
        this.label = label;
        this.sd = sd;
        this.names = names;
        this.params = List.copyOf(params);
        this.paramNames = params.stream().map(ParamSpec::name).toList();
        this.inputSize = inputSize;
        this.numClasses = numClasses;
    }

    /**
     * Checks a graph and takes it over: sets its loss variable and creates its gradient function.
     *
     * @param label what to call the graph in errors (e.g. "model file cnn.sd")
     * @return the graph, its parameters at their current values
     * @throws PsException INVALID_ARGUMENT naming what is wrong: a missing variable or one of the wrong kind
     *                     (listing the graph's variables as {@code name:KIND}), a placeholder that is not a
     *                     float32 matrix, a parameter that is not float32, or no parameter at all
     */
    public static SameDiffGraph of(SameDiff sd, GraphNames names, String label) {
        return of(sd, names, label, null);
    }

    /**
     * Like {@link #of(SameDiff, GraphNames, String)}, with the parameters in a given order (e.g. the order a
     * model declares them in) instead of the order SameDiff lists its variables in.
     *
     * @param order every trainable variable's name, once
     * @throws PsException INTERNAL when {@code order} does not name exactly the graph's trainable variables
     */
    public static SameDiffGraph of(SameDiff sd, GraphNames names, String label, List<String> order) {
        return build(sd, names, label, order, List.of());
    }

    /**
     * A graph with embedding tables held on the servers ({@link EmbeddingTable}): each table's variable is left
     * out of the dense parameters, and its id placeholders are fed each step with the batch's ids. The feature
     * placeholder ({@link GraphNames#input}) may be absent when every input is an id.
     *
     * @param tables the tables, each a float32 variable {@code [vocabulary, dim]} indexed by integer placeholders
     * @throws PsException INVALID_ARGUMENT naming a table variable that is missing, not a float32 matrix
     *                     variable, or an id placeholder that is missing, not an integer placeholder or shared by
     *                     two tables
     */
    public static SameDiffGraph withTables(SameDiff sd, GraphNames names, String label, EmbeddingTable... tables) {
        return build(sd, names, label, null, List.of(tables));
    }

    private static SameDiffGraph build(SameDiff sd, GraphNames names, String label, List<String> order,
                                       List<EmbeddingTable> tableList) {
        GraphTables tables = GraphTables.check(sd, label, tableList);
        boolean hasInput = tables.isEmpty() || sd.hasVariable(names.input());
        SDVariable labels = require(sd, label, names.label(), "label", VariableType.PLACEHOLDER);
        require(sd, label, names.loss(), "loss", null);
        require(sd, label, names.prediction(), "prediction", null);
        int inputSize = hasInput
                ? matrixWidth(label, require(sd, label, names.input(), "input", VariableType.PLACEHOLDER), "input") : 0;
        int numClasses = matrixWidth(label, labels, "label");
        List<ParamSpec> specs = new ArrayList<>();
        for (SDVariable v : sd.variables()) {
            if (v.getVariableType() != VariableType.VARIABLE || tables.isTable(v.name())) {
                continue;
            }
            INDArray value = v.getArr();
            if (value.dataType() != DataType.FLOAT) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": parameter '" + v.name() + "' is "
                        + value.dataType() + "; the parameter servers hold float32 (FLOAT) parameters only");
            }
            specs.add(new ParamSpec(v.name(), value.shape()));
        }
        if (specs.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has no trainable variable (VARIABLE)"
                    + (tables.isEmpty() ? "" : " besides its tables (keep one on the servers, e.g. a bias: it carries "
                    + "the step barrier)") + "; its variables: " + describe(sd));
        }
        if (order != null) {
            Map<String, ParamSpec> byName = new LinkedHashMap<>();
            specs.forEach(spec -> byName.put(spec.name(), spec));
            if (order.size() != specs.size() || !byName.keySet().containsAll(order)) {
                throw new PsException(ErrorCode.INTERNAL, label + ": parameter order " + order
                        + " does not name its trainable variables " + byName.keySet());
            }
            specs = order.stream().map(byName::get).toList();
        }
        sd.setLossVariables(names.loss());
        SameDiff compute = sd;
        if (!tables.isEmpty()) {
            compute = tables.trainingCopy(sd);
            compute.setLossVariables(names.loss());
        }
        compute.createGradFunction();
        return new SameDiffGraph(label, sd, names, specs, inputSize, numClasses, hasInput, tables, compute);
    }

    /** @return the graph itself (callers synchronize on this object while they use it) */
    public SameDiff sameDiff() {
        return sd;
    }

    /** @return the names of its input, label, loss and prediction variables */
    public GraphNames names() {
        return names;
    }

    /** @return its trainable parameters, in the graph's order */
    public List<ParamSpec> params() {
        return params;
    }

    /** @return features per example ({@code d} of the input placeholder) */
    public int inputSize() {
        return inputSize;
    }

    /** @return the graph's embedding tables (empty for a dense graph) */
    public GraphTables tables() {
        return tables;
    }

    /** @return number of classes ({@code k} of the label placeholder) */
    public int numClasses() {
        return numClasses;
    }

    /** @return a copy of a parameter's current value */
    public synchronized INDArray param(String name) {
        requireParam(name);
        return compute.getVariable(name).getArr().dup();
    }

    /** Sets a parameter's value (copied, reshaped to the parameter's shape). */
    public synchronized void setParam(String name, INDArray value) {
        ParamSpec spec = params.get(requireParam(name));
        if (value.length() != spec.elements()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, label + ": parameter " + spec + " given "
                    + value.length() + " elements");
        }
        INDArray shaped = value.dataType() == DataType.FLOAT ? value : value.castTo(DataType.FLOAT);
        compute.getVariable(name).getArr().assign(shaped.reshape('c', spec.shape()));
        if (compute != sd) {
            sd.getVariable(name).getArr().assign(shaped.reshape('c', spec.shape()));
        }
    }

    /**
     * One forward and backward pass over a batch.
     *
     * @param features {@code [n, d]}
     * @param labels   one-hot {@code [n, k]}
     * @return the mean loss and a fresh gradient per parameter, in parameter order
     */
    public synchronized StepResult gradients(INDArray features, INDArray labels) {
        requireDense("gradients");
        return run(placeholders(features, labels), paramNames);
    }

    /**
     * One forward and backward pass over a batch of a graph with tables.
     *
     * @param features   {@code [n, d]}, or ignored when the graph has no feature input
     * @param labels     {@code [n, k]}
     * @param lookupRows each lookup's rows ({@link TableRows#lookupRows})
     * @param inputs     the batch's other inputs by name (e.g. a multi-valued field's mask); those the graph has
     *                   as placeholders are fed, the rest left out
     * @return the mean loss and a fresh gradient per parameter and per lookup output
     */
    synchronized StepResult gradients(INDArray features, INDArray labels, Map<String, INDArray> lookupRows,
                                      Map<String, INDArray> inputs) {
        setLookupRows(lookupRows);
        List<String> wanted = new ArrayList<>(paramNames);
        wanted.addAll(lookupRows.keySet());
        Map<String, INDArray> placeholders = new java.util.HashMap<>(fed(inputs));
        placeholders.putAll(placeholders(features, labels));
        return run(placeholders, wanted);
    }

    /** @return the inputs the training graph reads as placeholders (besides features and labels) */
    private Map<String, INDArray> fed(Map<String, INDArray> inputs) {
        Map<String, INDArray> out = new java.util.HashMap<>();
        inputs.forEach((name, value) -> {
            if (compute.hasVariable(name) && compute.getVariable(name).getVariableType() == VariableType.PLACEHOLDER
                    && !name.equals(names.input()) && !name.equals(names.label())) {
                List<String> consumers = compute.getVariables().get(name).getInputsForOp();
                if (consumers != null && !consumers.isEmpty()) {
                    out.put(name, value);
                }
            }
        });
        return out;
    }

    /** @return the prediction for a batch of a graph with tables, given each lookup's rows and other inputs */
    synchronized INDArray predict(INDArray features, Map<String, INDArray> lookupRows, Map<String, INDArray> inputs) {
        setLookupRows(lookupRows);
        Map<String, INDArray> placeholders = new java.util.HashMap<>(fed(inputs));
        if (hasInput) {
            checkFeatures(features);
            placeholders.put(names.input(), asFloat(features));
        }
        FreshSessionArrays.apply(compute);
        return compute.output(placeholders, names.prediction()).get(names.prediction());
    }

    private void setLookupRows(Map<String, INDArray> lookupRows) {
        lookupRows.forEach((output, rows) -> compute.getVariable(output).setArray(rows));
    }

    /** Sets a table's whole value in the graph itself (what {@link #save} writes), e.g. the trained rows. */
    synchronized void setTable(String variable, INDArray rows) {
        sd.getVariable(variable).setArray(rows);
    }

    private StepResult run(Map<String, INDArray> placeholders, List<String> wanted) {
        FreshSessionArrays.apply(compute);
        OutAndGrad result = compute.calculateGradientsAndOutputs(placeholders, List.of(names.loss()), wanted);
        Map<String, INDArray> gradients = new LinkedHashMap<>();
        for (String name : wanted) {
            INDArray g = result.getGradients().get(name);
            if (g == null) {
                throw new PsException(ErrorCode.INTERNAL, label + " produced no gradient for " + name);
            }
            gradients.put(name, g);
        }
        return new StepResult(result.getOutputs().get(names.loss()).meanNumber().doubleValue(), gradients);
    }

    /** @return the mean loss of a batch (a forward pass only) */
    public synchronized double loss(INDArray features, INDArray labels) {
        requireDense("loss");
        FreshSessionArrays.apply(sd);
        return sd.output(placeholders(features, labels), names.loss()).get(names.loss()).meanNumber().doubleValue();
    }

    /** @return the class scores {@code [n, k]} of a batch of features {@code [n, d]} */
    public synchronized INDArray predict(INDArray features) {
        requireDense("predict");
        checkFeatures(features);
        FreshSessionArrays.apply(sd);
        return sd.output(Map.of(names.input(), asFloat(features)), names.prediction()).get(names.prediction());
    }

    /**
     * Writes the graph with the parameters' current values as a SameDiff model file (SameDiff's own
     * format, without optimizer state), which {@code SameDiff.load(file, false)} reads back in any
     * program. The file appears whole or not at all: it is written beside and then moved into place.
     *
     * @param file where to write; its folder must exist
     * @throws UncheckedIOException when the file cannot be written
     */
    public void save(Path file) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            synchronized (this) {
                sd.save(tmp.toFile(), false);
            }
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
    public String toString() {
        return label + params;
    }

    private void requireDense(String what) {
        if (!tables.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has embedding tables: " + what + " through "
                    + "the trainer, which looks up their rows");
        }
    }

    private int requireParam(String name) {
        int index = paramNames.indexOf(name);
        if (index < 0) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, label + " has no parameter '" + name
                    + "'; its parameters are " + paramNames);
        }
        return index;
    }

    private Map<String, INDArray> placeholders(INDArray features, INDArray labels) {
        if (!hasInput) {
            if (labels.rank() != 2 || labels.size(1) != numClasses || labels.size(0) < 1) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " needs labels [n >= 1, " + numClasses
                        + "], got " + Arrays.toString(labels.shape()));
            }
            return Map.of(names.label(), asFloat(labels));
        }
        checkFeatures(features);
        if (labels.rank() != 2 || labels.size(1) != numClasses || labels.size(0) != features.size(0)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " needs labels [" + features.size(0)
                    + ", " + numClasses + "], got " + Arrays.toString(labels.shape()));
        }
        return Map.of(names.input(), asFloat(features), names.label(), asFloat(labels));
    }

    private void checkFeatures(INDArray features) {
        if (features.rank() != 2 || features.size(1) != inputSize || features.size(0) < 1) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " needs features [n >= 1, " + inputSize
                    + "], got " + Arrays.toString(features.shape()));
        }
    }

    private static INDArray asFloat(INDArray array) {
        return array.dataType() == DataType.FLOAT ? array : array.castTo(DataType.FLOAT);
    }

    private static SDVariable require(SameDiff sd, String label, String name, String role, VariableType type) {
        SDVariable v = sd.hasVariable(name) ? sd.getVariable(name) : null;
        if (v == null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has no variable '" + name + "' (ps.worker.graph."
                    + role + "); its variables: " + describe(sd));
        }
        if (type != null && v.getVariableType() != type) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": ps.worker.graph." + role + "='" + name
                    + "' is a " + v.getVariableType() + ", not a " + type + "; its variables: " + describe(sd));
        }
        return v;
    }

    private static int matrixWidth(String label, SDVariable placeholder, String role) {
        long[] shape = placeholder.placeholderShape();
        if (shape == null || shape.length != 2 || shape[1] < 1 || placeholder.dataType() != DataType.FLOAT) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": placeholder '" + placeholder.name()
                    + "' (ps.worker.graph." + role + ") must be a FLOAT matrix [-1, width], got "
                    + placeholder.dataType() + " " + Arrays.toString(shape));
        }
        return (int) shape[1];
    }

    /** @return every variable as name:type, in the graph's order */
    static List<String> describe(SameDiff sd) {
        return sd.variables().stream().map(v -> v.name() + ":" + v.getVariableType()).toList();
    }
}
