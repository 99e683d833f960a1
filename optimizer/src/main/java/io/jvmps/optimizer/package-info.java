/**
 * The optimizers (SGD, Momentum, Adagrad, Adam, FTRL) that turn a gradient into an in-place parameter
 * update, on nd4j arrays (dense slices) and on flat float rows (sparse tables). One implementation,
 * used by the servers for the parameters they own and by hybrid workers for their local parameters.
 */
package io.jvmps.optimizer;
