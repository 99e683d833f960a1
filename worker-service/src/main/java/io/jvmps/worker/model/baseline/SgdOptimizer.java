package io.jvmps.worker.model.baseline;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Plain SGD: {@code param -= learningRate * gradient}. Stateless. */
public final class SgdOptimizer implements LocalOptimizer {
    private final double learningRate;

    /** @param learningRate step size, &gt; 0 */
    public SgdOptimizer(double learningRate) {
        if (!(learningRate > 0)) {
            throw new IllegalArgumentException("learning rate must be > 0, got " + learningRate);
        }
        this.learningRate = learningRate;
    }

    @Override
    public void apply(String name, INDArray param, INDArray gradient) {
        param.subi(gradient.mul(learningRate));
    }
}
