/** The worker's Micrometer meters and Actuator health. */
package io.jvmps.worker.monitor;
