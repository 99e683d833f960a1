package io.jvmps.worker.model.baseline;

import java.util.function.DoubleFunction;

/** The local optimizers, by name, for the baseline trainer. */
public enum LocalOptimizerType {
    /** {@link SgdOptimizer}. */
    SGD(SgdOptimizer::new),
    /** {@link AdamOptimizer}. */
    ADAM(AdamOptimizer::new);

    private final DoubleFunction<LocalOptimizer> factory;

    LocalOptimizerType(DoubleFunction<LocalOptimizer> factory) {
        this.factory = factory;
    }

    /** @return a fresh optimizer (no state) with this learning rate */
    public LocalOptimizer create(double learningRate) {
        return factory.apply(learningRate);
    }
}
