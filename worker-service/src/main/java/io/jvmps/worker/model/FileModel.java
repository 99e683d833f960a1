package io.jvmps.worker.model;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model a user built and saved with SameDiff ({@code sd.save(file, ...)}), trained as it is:
 * every float32 variable of the graph ({@link VariableType#VARIABLE}, in the graph's order) is a
 * parameter, and the values saved in the file are the initial values, so every worker starts from
 * the same ones. The graph needs a feature placeholder {@code [-1, d]}, a one-hot label placeholder
 * {@code [-1, k]}, a loss variable and a class-score variable, named by {@link GraphNames}
 * ({@code ps.worker.graph.*}). Anything else missing or of the wrong kind is refused when the file
 * is loaded, with a message that lists what the graph has. Methods are synchronized.
 */
public final class FileModel extends SameDiffModel {
    private final String label;
    private final Map<String, INDArray> saved;

    private FileModel(String modelName, SameDiff sd, GraphNames names, List<ParamSpec> specs, int inputSize,
                      int numClasses, Map<String, INDArray> saved) {
        super(modelName, sd, names, specs, inputSize, numClasses);
        this.label = modelName;
        this.saved = saved;
    }

    /**
     * Loads and checks a model file.
     *
     * @param file  a SameDiff model file
     * @param names its input, label, loss and prediction variables
     * @return the model, its parameters at the file's values
     * @throws PsException INVALID_ARGUMENT naming the file and what is wrong: no such file, not a SameDiff
     *                     model, a missing variable (listing the graph's variables), a placeholder that is
     *                     not a float32 matrix, a parameter that is not float32, or no parameter at all
     */
    public static FileModel load(Path file, GraphNames names) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: no readable model file at "
                    + file.toAbsolutePath());
        }
        SameDiff sd;
        try {
            sd = SameDiff.load(file.toFile(), false);
        } catch (RuntimeException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: " + file + " is not a SameDiff model "
                    + "file (" + e.getMessage() + ")");
        }
        String label = "model file " + file.getFileName();
        SDVariable input = require(sd, label, names.input(), "input", VariableType.PLACEHOLDER);
        SDVariable labels = require(sd, label, names.label(), "label", VariableType.PLACEHOLDER);
        require(sd, label, names.loss(), "loss", null);
        require(sd, label, names.prediction(), "prediction", null);
        int inputSize = matrixWidth(label, input, "input");
        int numClasses = matrixWidth(label, labels, "label");
        List<ParamSpec> specs = new ArrayList<>();
        Map<String, INDArray> saved = new LinkedHashMap<>();
        for (SDVariable v : sd.variables()) {
            if (v.getVariableType() != VariableType.VARIABLE) {
                continue;
            }
            INDArray value = v.getArr();
            if (value.dataType() != DataType.FLOAT) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": parameter '" + v.name() + "' is "
                        + value.dataType() + "; the parameter servers hold float32 (FLOAT) parameters only");
            }
            specs.add(new ParamSpec(v.name(), value.shape()));
            saved.put(v.name(), value.dup());
        }
        if (specs.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + " has no trainable variable (VARIABLE); its "
                    + "variables: " + describe(sd));
        }
        sd.setLossVariables(names.loss());
        sd.createGradFunction();
        return new FileModel(label, sd, names, specs, inputSize, numClasses, saved);
    }

    /** @return the values saved in the file, whatever the seed: every worker starts from them */
    @Override
    public Map<String, INDArray> initialParams(long seed) {
        Map<String, INDArray> out = new LinkedHashMap<>();
        saved.forEach((name, value) -> out.put(name, value.dup()));
        return out;
    }

    /**
     * @param features the data's features per example
     * @param classes  the data's classes
     * @throws PsException INVALID_ARGUMENT when they differ from the graph's placeholders
     */
    public void requireSizes(int features, int classes) {
        if (features != inputSize() || classes != numClasses()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, label + ": the graph takes " + inputSize()
                    + " features and " + numClasses() + " classes, the data has " + features + " features and "
                    + classes + " classes");
        }
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
    private static List<String> describe(SameDiff sd) {
        return sd.variables().stream().map(v -> v.name() + ":" + v.getVariableType()).toList();
    }
}
