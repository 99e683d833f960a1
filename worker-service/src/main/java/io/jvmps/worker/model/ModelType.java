package io.jvmps.worker.model;

import java.util.function.BiFunction;

/** The built-in models, chosen by configuration ({@code ps.worker.model=LENET5} or {@code SOFTMAX}). */
public enum ModelType implements ModelProvider {
    /** {@link LeNet5}: MNIST only (784 inputs, 10 classes). */
    LENET5(LeNet5::create),
    /** {@link SoftmaxRegression}: any input size and class count. */
    SOFTMAX(SoftmaxRegression::new);

    private final BiFunction<Integer, Integer, TrainableModel> factory;

    ModelType(BiFunction<Integer, Integer, TrainableModel> factory) {
        this.factory = factory;
    }

    /**
     * Checks a placement against this model's parameter names (which do not depend on the data
     * sizes), e.g. at start-up before any data is read. Builds one MNIST-sized instance.
     *
     * @return the placement
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT naming an unknown parameter and the
     *                                              model's parameter names
     */
    @Override
    public Placement check(Placement placement) {
        return placement.check(name(), create(LeNet5.INPUTS, LeNet5.CLASSES).params());
    }

    /**
     * @param inputSize  features per example
     * @param numClasses number of classes
     * @return a new model with parameters from {@code initialParams(0)}
     * @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT if this model cannot take these sizes
     */
    @Override
    public TrainableModel create(int inputSize, int numClasses) {
        return factory.apply(inputSize, numClasses);
    }
}
