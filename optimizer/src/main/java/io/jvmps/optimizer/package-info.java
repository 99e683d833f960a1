/**
 * The optimizers (SGD, Momentum, Adagrad, Adam, FTRL) that turn a gradient into an in-place parameter
 * update, on nd4j arrays (dense slices) and on flat float rows (sparse tables). One implementation: each
 * optimizer's {@link io.jvmps.optimizer.Optimizer#update} loop over an {@link io.jvmps.optimizer.UpdateSpan},
 * used by the servers for the parameters they own and by hybrid workers for their local parameters;
 * {@link io.jvmps.optimizer.ParallelOptimizer} runs large slices on several threads.
 */
package io.jvmps.optimizer;
