/**
 * What an optimizer is, without the arithmetic: its hyper-parameters ({@link io.jvmps.common.optimizer.OptimizerSettings})
 * and learning-rate schedules. Plain Java, so they travel in the protocol (a server's description) and
 * the {@code optimizer} module builds the nd4j update rules from them.
 */
package io.jvmps.common.optimizer;
