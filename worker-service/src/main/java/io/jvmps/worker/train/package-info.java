/** The training loop: pull, forward/backward, push, progress reports and the final evaluation. */
package io.jvmps.worker.train;
