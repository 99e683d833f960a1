/** Typed, validated {@code ps.*} configuration and the scheduler's infrastructure beans. */
package io.jvmps.scheduler.config;
