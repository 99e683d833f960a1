package io.jvmps.server.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Plain stochastic gradient descent: {@code p -= lr * g}. Keeps no state. */
public final class Sgd implements Optimizer {
    private final double lr;

    /** @param settings uses {@code learningRate} */
    public Sgd(OptimizerSettings settings) {
        this.lr = settings.learningRate();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.NONE;
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        param.subi(gradient.muli(lr));
    }

    @Override
    public String describe() {
        return "SGD(lr=" + lr + ")";
    }
}
