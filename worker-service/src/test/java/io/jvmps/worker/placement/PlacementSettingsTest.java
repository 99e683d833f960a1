package io.jvmps.worker.placement;

import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.Placement;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ps.worker.placement} and {@code ps.worker.local-params} at start-up. */
class PlacementSettingsTest {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({WorkerProperties.class, io.jvmps.common.node.SchedulerAddress.class,
            io.jvmps.common.node.NodeProperties.class})
    static class Props {
        @Bean
        Placement placement(WorkerProperties props) {
            return PlacementSettings.resolve(props, io.jvmps.worker.model.ModelProviders.resolve(props.model(),
                    props.graph().names(), Props.class.getClassLoader()));
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Props.class);

    @Test
    void theDefaultIsEverythingOnThePs() {
        runner.run(context -> assertThat(context.getBean(Placement.class)).isSameAs(Placement.allOnPs()));
    }

    @Test
    void hybridWithLocalParamsGivesAWorkerLocalPlacement() {
        runner.withPropertyValues("ps.worker.model=LENET5", "ps.worker.placement=HYBRID",
                "ps.worker.local-params=conv1_W, conv1_b").run(context -> {
                    Placement placement = context.getBean(Placement.class);
                    assertThat(placement.isOnPs("conv1_W")).isFalse();
                    assertThat(placement.isOnPs("conv1_b")).isFalse();
                    assertThat(placement.isOnPs("fc1_W")).isTrue();
                });
    }

    @Test
    void anUnknownLocalParamFailsStartNamingItAndTheModelsParameters() {
        runner.withPropertyValues("ps.worker.model=SOFTMAX", "ps.worker.placement=HYBRID",
                "ps.worker.local-params=bias").run(context -> assertThat(context).getFailure().rootCause()
                .hasMessageContaining("ps.worker.local-params").hasMessageContaining("'bias'")
                .hasMessageContaining("[W, b]"));
    }

    @Test
    void hybridWithoutLocalParamsFailsStart() {
        runner.withPropertyValues("ps.worker.placement=HYBRID").run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("ps.worker.local-params"));
    }

    @Test
    void localParamsWithAllPsFailStart() {
        runner.withPropertyValues("ps.worker.local-params=b").run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("ps.worker.placement").hasMessageContaining("HYBRID"));
    }

    @Test
    void anUnknownPlacementModeFailsStartNamingTheProperty() {
        runner.withPropertyValues("ps.worker.placement=SOME").run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("ps.worker.placement").hasStackTraceContaining("SOME"));
    }
}
