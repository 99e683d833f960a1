/** The node registry: registration, per-role dense ranks, node states and the epoch-stamped cluster view. */
package io.jvmps.scheduler.registry;
