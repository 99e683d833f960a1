package io.jvmps.worker.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings under their names from before the grouping still configure a worker started the way the jar starts
 * (a {@code SpringApplication}, so the post-processor registered in {@code spring.factories} runs), with a warning.
 */
@ExtendWith(OutputCaptureExtension.class)
class RenamedWorkerPropertiesTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WorkerProperties.class)
    static class Props {
    }

    @Test
    void anOldNameOnTheCommandLineIsBoundToItsNewNameWithAWarning(CapturedOutput output) {
        WorkerProperties props = start(Map.of(), Map.of(), "--ps.worker.batch-size=8", "--ps.worker.export-dir=out",
                "--ps.worker.csv.label=clicked");
        assertThat(props.training().batchSize()).isEqualTo(8);
        assertThat(props.output().modelDir()).isEqualTo("out");
        assertThat(props.dataset().csv().label()).as("a renamed group's members").isEqualTo("clicked");
        assertThat(props.dataset().csv().header()).as("the group's other members keep their defaults").isTrue();
        assertThat(output).contains("ps.worker.batch-size (set in commandLineArgs) is an old name: use "
                + "ps.worker.training.batch-size").contains("use ps.worker.dataset.csv");
    }

    @Test
    void anOldEnvironmentVariableIsBoundToItsNewName() {
        WorkerProperties props = start(Map.of("PS_WORKER_EPOCHS", "2", "PS_WORKER_DATA", "SYNTHETIC",
                "PS_WORKER_CSV_SKIPBADROWS", "true"), Map.of());
        assertThat(props.training().epochs()).isEqualTo(2);
        assertThat(props.dataset().format()).isEqualTo(DataFormat.SYNTHETIC);
        assertThat(props.dataset().csv().skipBadRows()).isTrue();
    }

    @Test
    void theNewNameWinsInTheSameSourceAndTheHigherSourceWinsAcrossSources(CapturedOutput output) {
        assertThat(start(Map.of(), Map.of(), "--ps.worker.epochs=2", "--ps.worker.training.epochs=3")
                .training().epochs()).isEqualTo(3);
        assertThat(output).contains("ps.worker.epochs and ps.worker.training.epochs are both set in commandLineArgs");

        assertThat(start(Map.of(), Map.of("ps.worker.training.epochs", "5"), "--ps.worker.epochs=2")
                .training().epochs()).as("old name on the command line over a new default").isEqualTo(2);
        assertThat(start(Map.of(), Map.of("ps.worker.epochs", "5"), "--ps.worker.training.epochs=2")
                .training().epochs()).as("new name on the command line over an old default").isEqualTo(2);
        assertThat(start(Map.of("PS_WORKER_TRAINING_EPOCHS", "7"), Map.of(), "--ps.worker.epochs=2")
                .training().epochs()).as("command line over the environment").isEqualTo(2);
    }

    @Test
    void withoutOldNamesNothingIsRenamedOrWarned(CapturedOutput output) {
        WorkerProperties props = start(Map.of(), Map.of(), "--ps.worker.training.seed=9");
        assertThat(props.training().seed()).isEqualTo(9);
        assertThat(props).isEqualTo(WorkerPropertiesBinding.bind(Map.of("ps.worker.training.seed", "9")));
        assertThat(output).doesNotContain("is an old name");
    }

    @Test
    void theMetadataMarksEveryOldNameDeprecatedWithItsReplacement() throws IOException {
        Map<String, String> deprecated = new HashMap<>();
        List<String> bound = new java.util.ArrayList<>();
        for (URL url : Collections.list(getClass().getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
                    String name = property.get("name").asString();
                    if (!name.startsWith("ps.worker.")) {
                        continue;
                    }
                    if (property.has("deprecation")) {
                        deprecated.put(name, property.get("deprecation").get("replacement").asString());
                    } else {
                        bound.add(name);
                    }
                }
            }
        }
        Map<String, String> expected = new HashMap<>();
        RenamedWorkerProperties.RENAMED.forEach((oldName, newName) -> {
            List<String> members = bound.stream().filter(n -> n.startsWith(newName + ".")).toList();
            if (members.isEmpty()) {
                assertThat(bound).as("the new name of " + oldName).contains(newName);
                expected.put(oldName, newName);
            } else {
                members.forEach(m -> expected.put(oldName + m.substring(newName.length()), m));
            }
        });
        assertThat(deprecated).isEqualTo(expected);
    }

    private static WorkerProperties start(Map<String, Object> environment, Map<String, Object> defaults,
                                          String... args) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        environment));
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Props.class)
                .web(WebApplicationType.NONE).environment(env).properties(defaults).run(args)) {
            return context.getBean(WorkerProperties.class);
        }
    }
}
