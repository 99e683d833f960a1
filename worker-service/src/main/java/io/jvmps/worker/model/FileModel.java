package io.jvmps.worker.model;

import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A model a user built and saved with SameDiff ({@code sd.save(file, ...)}), trained as it is:
 * every float32 variable of the graph ({@code VARIABLE}, in the graph's order) is a
 * parameter, and the values saved in the file are the initial values, so every worker starts from
 * the same ones. The graph needs a feature placeholder {@code [-1, d]}, a one-hot label placeholder
 * {@code [-1, k]}, a loss variable and a class-score variable, named by {@link GraphNames}
 * ({@code ps.worker.graph.*}). Anything else missing or of the wrong kind is refused when the file
 * is loaded, with a message that lists what the graph has. Methods are synchronized.
 */
public final class FileModel extends SameDiffModel {
    private final String label;
    private final Map<String, INDArray> saved;

    private FileModel(String modelName, SameDiffGraph graph, Map<String, INDArray> saved) {
        super(modelName, graph);
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
        SameDiff sd = read(file);
        String label = "model file " + file.getFileName();
        SameDiffGraph graph = SameDiffGraph.of(sd, names, label);
        Map<String, INDArray> saved = new LinkedHashMap<>();
        for (ParamSpec spec : graph.params()) {
            saved.put(spec.name(), graph.param(spec.name()));
        }
        return new FileModel(label, graph, saved);
    }

    /**
     * @return the SameDiff graph saved in {@code file}
     * @throws PsException INVALID_ARGUMENT naming {@code ps.worker.model} and the file when it is missing,
     *                     unreadable or not a SameDiff model
     */
    static SameDiff read(Path file) {
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: no readable model file at "
                    + file.toAbsolutePath());
        }
        try {
            return SameDiff.load(file.toFile(), false);
        } catch (RuntimeException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.model: " + file + " is not a SameDiff model "
                    + "file (" + e.getMessage() + ")");
        }
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
}
