package io.jvmps.server.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * SGD with momentum: {@code v = mu*v + g; p -= lr*v}, or with Nesterov {@code p -= lr*(g + mu*v)}
 * (using the updated v). One state slot: v.
 */
public final class Momentum implements Optimizer {
    private final double lr;
    private final double mu;
    private final boolean nesterov;

    /** @param settings uses {@code learningRate}, {@code momentum}, {@code nesterov} */
    public Momentum(OptimizerSettings settings) {
        this.lr = settings.learningRate();
        this.mu = settings.momentum();
        this.nesterov = settings.nesterov();
    }

    @Override
    public OptimizerState newState(int length) {
        return OptimizerState.zeros(1, length);
    }

    @Override
    public void apply(INDArray param, INDArray gradient, OptimizerState state, long step) {
        INDArray v = state.slot(0);
        v.muli(mu).addi(gradient);
        if (nesterov) {
            param.subi(gradient.addi(v.mul(mu)).muli(lr));
        } else {
            param.subi(v.mul(lr));
        }
    }

    @Override
    public String describe() {
        return "MOMENTUM(lr=" + lr + ", momentum=" + mu + ", nesterov=" + nesterov + ")";
    }
}
