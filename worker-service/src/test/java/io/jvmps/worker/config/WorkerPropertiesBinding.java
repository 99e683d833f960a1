package io.jvmps.worker.config;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.Map;

/** Binds {@link WorkerProperties} the way Spring does at start-up, from a map of property names to values. */
public final class WorkerPropertiesBinding {
    private WorkerPropertiesBinding() {
    }

    /** @return the settings a worker runs with when nothing is set */
    public static WorkerProperties bind() {
        return bind(Map.of());
    }

    /** @return the settings a worker runs with when {@code properties} ({@code ps.worker.*} names) are set */
    public static WorkerProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("ps.worker", WorkerProperties.class);
    }
}
