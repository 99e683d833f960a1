/** Failure detection (missed heartbeats mark nodes DEAD) and the scheduler's actuator health. */
package io.jvmps.scheduler.health;
