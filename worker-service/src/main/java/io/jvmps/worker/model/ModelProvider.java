package io.jvmps.worker.model;

/**
 * Builds the model a worker trains, chosen by name with {@code ps.worker.model}. The built-in models
 * ({@link ModelType}) are providers; a user adds one by implementing this interface in a jar on the
 * worker's class path and listing the class in
 * {@code META-INF/services/io.jvmps.worker.model.ModelProvider} (Java's {@link java.util.ServiceLoader};
 * a public no-argument constructor). Implementations must be safe to call from the training thread
 * while another thread reads {@link #name()}.
 */
public interface ModelProvider {

    /** @return the name {@code ps.worker.model} selects this provider by (compared ignoring case) */
    String name();

    /**
     * @param inputSize  features per example in the job's data
     * @param numClasses classes in the job's data
     * @return a new model whose parameters hold {@code initialParams(0)}; the same parameter names,
     *         shapes and initial values for the same arguments in every process
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT when the model cannot take these sizes
     */
    TrainableModel create(int inputSize, int numClasses);

    /**
     * Checks a placement against the model's parameter names at start-up, before any data is read.
     * The default checks nothing here: the placement is checked when the model is created and placed.
     *
     * @return the placement
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT naming an unknown parameter
     */
    default Placement check(Placement placement) {
        return placement;
    }
}
