package io.jvmps.optimizer;

import io.jvmps.common.optimizer.OptimizerSettings;
import java.util.function.Function;

/** The optimizers a server can run, chosen by {@code ps.optimizer.type}. */
public enum OptimizerType {
    /** {@code p -= lr * g}. */
    SGD(Sgd::new),
    /** Heavy-ball or Nesterov momentum. */
    MOMENTUM(Momentum::new),
    /** Per-coordinate rates from the running sum of squared gradients. */
    ADAGRAD(Adagrad::new),
    /** Bias-corrected Adam. */
    ADAM(Adam::new),
    /** FTRL-Proximal with L1/L2 regularisation (sparse weights). */
    FTRL(Ftrl::new),
    /** Adagrad with one accumulator per row: sparse tables only (a table's {@code optimizer}), not ps.optimizer.type. */
    ROWWISE_ADAGRAD(RowwiseAdagrad::new);

    private final Function<OptimizerSettings, Optimizer> factory;

    OptimizerType(Function<OptimizerSettings, Optimizer> factory) {
        this.factory = factory;
    }

    /**
     * @param settings hyper-parameters
     * @return a new optimizer of this type
     */
    public Optimizer create(OptimizerSettings settings) {
        return factory.apply(settings);
    }

    /** @return true for an optimizer of sparse-table rows only ({@link Optimizer#rowsOnly}) */
    public boolean rowsOnly() {
        return this == ROWWISE_ADAGRAD;
    }
}
