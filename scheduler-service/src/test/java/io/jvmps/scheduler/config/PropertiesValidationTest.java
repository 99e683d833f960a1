package io.jvmps.scheduler.config;

import io.jvmps.common.cluster.ClusterProperties;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class PropertiesValidationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Props.class);

    @Test
    void defaultsBindAndValidate() {
        runner.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            SchedulerProperties scheduler = ctx.getBean(SchedulerProperties.class);
            assertThat(scheduler.port()).isEqualTo(8080);
            assertThat(scheduler.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(scheduler.failureCheckInterval()).isEqualTo(Duration.ofSeconds(1));
            assertThat(ctx.getBean(ClusterProperties.class)).isEqualTo(new ClusterProperties(1, 1));
        });
    }

    @Test
    void zeroServersFailsNamingTheProperty() {
        assertFails("ps.cluster.server-num=0", "ps.cluster.server-num must be between 1 and 4096");
    }

    @Test
    void zeroWorkersFailsNamingTheProperty() {
        assertFails("ps.cluster.worker-num=0", "ps.cluster.worker-num must be between 1 and 4096");
    }

    @Test
    void portOutOfRangeFailsNamingTheProperty() {
        assertFails("ps.scheduler.port=70000", "ps.scheduler.port must be between 1 and 65535");
    }

    @Test
    void nonPositiveTimeoutFails() {
        assertFails("ps.scheduler.heartbeat-timeout=0s", "ps.scheduler.heartbeat-timeout must be positive");
    }

    @Test
    void checkIntervalMustBeBelowTimeout() {
        assertFails("ps.scheduler.failure-check-interval=1m",
                "ps.scheduler.failure-check-interval must be shorter than ps.scheduler.heartbeat-timeout");
    }

    private void assertFails(String property, String message) {
        runner.withPropertyValues(property).run(ctx -> {
            assertThat(ctx).hasFailed();
            Throwable failure = ctx.getStartupFailure();
            StringBuilder all = new StringBuilder();
            for (Throwable t = failure; t != null; t = t.getCause()) {
                all.append(t.getMessage()).append('\n');
            }
            assertThat(all.toString()).contains(message);
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({ClusterProperties.class, SchedulerProperties.class})
    static class Props {
    }
}
