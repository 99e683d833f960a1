/** Typed, validated worker configuration ({@code ps.worker.*}, {@code ps.cluster.*}, {@code ps.scheduler.*}). */
package io.jvmps.worker.config;
