/** Single-process training without parameter servers: the throughput and convergence baseline. */
package io.jvmps.worker.model.baseline;
