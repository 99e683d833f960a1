package io.jvmps.worker.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * What the worker process does when training ends or it is told to stop ({@code ps.worker.lifecycle.*}).
 *
 * @param exitOnFinish exit the JVM when training ends (false keeps the app up, for tests and inspection)
 * @param shutdownTimeout on shutdown (SIGTERM, context close), how long to wait for the training thread to stop and
 *     clean up (a CTR job writes its embedding cache's changed rows back to the servers) before the JVM goes on
 */
public record LifecycleProperties(
        @DefaultValue("true") boolean exitOnFinish,
        @NotNull @DefaultValue("30s") Duration shutdownTimeout) {
}
