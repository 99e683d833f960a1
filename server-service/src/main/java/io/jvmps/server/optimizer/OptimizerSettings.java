package io.jvmps.server.optimizer;

/**
 * Hyper-parameters of every optimizer; each uses the ones it needs. Immutable.
 *
 * @param learningRate step size
 * @param momentum     momentum coefficient (MOMENTUM)
 * @param nesterov     Nesterov variant (MOMENTUM)
 * @param beta1        first-moment decay (ADAM)
 * @param beta2        second-moment decay (ADAM)
 * @param epsilon      denominator guard (ADAM)
 */
public record OptimizerSettings(double learningRate, double momentum, boolean nesterov,
                                double beta1, double beta2, double epsilon) {
}
