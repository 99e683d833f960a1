package io.jvmps.worker.config;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the worker's settings from before they were grouped by concern working: a property set under its old name
 * ({@code ps.worker.batch-size}, {@code PS_WORKER_BATCHSIZE}, a group such as {@code ps.worker.csv.*}) is bound to its
 * new one ({@code ps.worker.training.batch-size}) with one warning that names both. The renamed values sit just
 * before the source they were found in, so they keep that source's precedence: a new name set in a higher source
 * wins, and within one source the new name wins over the old. Runs after the config files are loaded, so old names
 * in {@code application.yml} count too. The renames are {@link #RENAMED}; the configuration metadata marks the old
 * names deprecated with the same replacements, so IDEs flag them.
 */
public class RenamedWorkerProperties implements EnvironmentPostProcessor, Ordered {
    /** Old name (a property or a group) to its new name, in the order of docs/configuration.md. */
    public static final Map<String, String> RENAMED = renames();
    private static final String SOURCE_PREFIX = "renamed ps.worker properties of ";

    private final Log log;

    public RenamedWorkerProperties(DeferredLogFactory logs) {
        this.log = logs.getLog(RenamedWorkerProperties.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        List<PropertySource<?>> sources = new ArrayList<>();
        environment.getPropertySources().forEach(sources::add);
        for (PropertySource<?> source : sources) {
            if (source.getName().startsWith(SOURCE_PREFIX)) {
                return;
            }
            ConfigurationPropertySource properties = ConfigurationPropertySource.from(source);
            if (properties == null) {
                continue;
            }
            Map<String, Object> renamed = renamedValues(properties, source.getName());
            if (!renamed.isEmpty()) {
                environment.getPropertySources().addBefore(source.getName(),
                        new MapPropertySource(SOURCE_PREFIX + source.getName(), renamed));
            }
        }
    }

    /** @return the new names and values of the old names one source sets, each old name warned about once */
    private Map<String, Object> renamedValues(ConfigurationPropertySource properties, String sourceName) {
        Map<String, Object> renamed = new LinkedHashMap<>();
        RENAMED.forEach((oldName, newName) -> {
            ConfigurationPropertyName old = ConfigurationPropertyName.of(oldName);
            Map<String, Object> values = new LinkedHashMap<>();
            ConfigurationProperty exact = properties.getConfigurationProperty(old);
            if (exact != null) {
                values.put(newName, exact.getValue());
            }
            if (properties instanceof IterableConfigurationPropertySource iterable) {
                iterable.stream().filter(old::isAncestorOf).forEach(name -> values.put(
                        newName + name.toString().substring(old.toString().length()),
                        iterable.getConfigurationProperty(name).getValue()));
            }
            if (values.isEmpty()) {
                return;
            }
            ConfigurationPropertyName current = ConfigurationPropertyName.of(newName);
            if (properties.getConfigurationProperty(current) != null
                    || properties.containsDescendantOf(current) == ConfigurationPropertyState.PRESENT) {
                log.warn(oldName + " and " + newName + " are both set in " + sourceName + ": " + newName
                        + " is used; remove " + oldName);
                return;
            }
            log.warn(oldName + " (set in " + sourceName + ") is an old name: use " + newName
                    + "; it is bound to " + newName + " for now");
            renamed.putAll(values);
        });
        return renamed;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    private static Map<String, String> renames() {
        Map<String, String> renames = new LinkedHashMap<>();
        renames.put("ps.worker.data", "ps.worker.dataset.format");
        renames.put("ps.worker.data-path", "ps.worker.dataset.path");
        for (String file : List.of("train-file", "test-file", "train-labels-file", "test-labels-file",
                "num-features", "num-classes", "train-limit", "test-limit", "sharding")) {
            renames.put("ps.worker." + file, "ps.worker.dataset." + file);
        }
        renames.put("ps.worker.data-partitions", "ps.worker.dataset.partitions");
        renames.put("ps.worker.csv", "ps.worker.dataset.csv");
        for (String training : List.of("epochs", "batch-size", "seed", "log-interval", "max-steps",
                "eval-batch-size", "step-delay")) {
            renames.put("ps.worker." + training, "ps.worker.training." + training);
        }
        renames.put("ps.worker.server-wait-timeout", "ps.worker.servers.wait-timeout");
        renames.put("ps.worker.server-wait-interval", "ps.worker.servers.wait-interval");
        for (String call : List.of("request-timeout", "connection-loss-timeout", "recovery-timeout")) {
            renames.put("ps.worker." + call, "ps.worker.servers." + call);
        }
        renames.put("ps.worker.export-dir", "ps.worker.output.model-dir");
        renames.put("ps.worker.output-dir", "ps.worker.output.parameters-dir");
        renames.put("ps.worker.exit-on-finish", "ps.worker.lifecycle.exit-on-finish");
        renames.put("ps.worker.shutdown-timeout", "ps.worker.lifecycle.shutdown-timeout");
        return java.util.Collections.unmodifiableMap(renames);
    }
}
