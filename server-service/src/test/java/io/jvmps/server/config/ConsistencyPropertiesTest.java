package io.jvmps.server.config;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.server.consistency.ConsistencySettings;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ps.consistency.*}: defaults, binding, and start-up failures that name the property. */
class ConsistencyPropertiesTest {
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(ConsistencyProperties.class)
    static class Props {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Props.class);

    @Test
    void defaults() {
        runner.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ConsistencyProperties p = ctx.getBean(ConsistencyProperties.class);
            assertThat(p.mode()).isEqualTo(ConsistencyMode.SYNC);
            assertThat(p.staleness()).isEqualTo(3);
            assertThat(p.geoInterval()).isEqualTo(10);
            assertThat(p.geoLearningRate()).isEqualTo(0.1);
            assertThat(p.settings()).isEqualTo(new ConsistencySettings(ConsistencyMode.SYNC, 0, 0, 0.0));
        });
    }

    @Test
    void everyModeBindsInAnyCase() {
        runner.withPropertyValues("ps.consistency.mode=ssp", "ps.consistency.staleness=0").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(ConsistencyProperties.class).settings())
                    .isEqualTo(new ConsistencySettings(ConsistencyMode.SSP, 0, 0, 0.0));
        });
        runner.withPropertyValues("ps.consistency.mode=Geo", "ps.consistency.geo-interval=1",
                "ps.consistency.geo-learning-rate=0.5").run(ctx -> {
            assertThat(ctx).hasNotFailed();
            assertThat(ctx.getBean(ConsistencyProperties.class).settings())
                    .isEqualTo(new ConsistencySettings(ConsistencyMode.GEO, 0, 1, 0.5));
        });
        runner.withPropertyValues("ps.consistency.mode=async").run(ctx ->
                assertThat(ctx.getBean(ConsistencyProperties.class).mode()).isEqualTo(ConsistencyMode.ASYNC));
    }

    @Test
    void badValuesNameTheProperty() {
        expectFailure("ps.consistency.staleness=-1", "ps.consistency.staleness must be >= 0");
        expectFailure("ps.consistency.geo-interval=0", "ps.consistency.geo-interval must be >= 1");
        expectFailure("ps.consistency.geo-learning-rate=0", "ps.consistency.geo-learning-rate must be > 0");
        expectFailure("ps.consistency.geo-learning-rate=-0.1", "ps.consistency.geo-learning-rate must be > 0");
        expectFailure("ps.consistency.mode=bsp", "ps.consistency.mode");
        expectFailure("ps.consistency.staleness=many", "ps.consistency.staleness");
    }

    private void expectFailure(String property, String message) {
        runner.withPropertyValues(property).run(ctx -> {
            assertThat(ctx).hasFailed();
            StringBuilder all = new StringBuilder();
            for (Throwable c = ctx.getStartupFailure(); c != null; c = c.getCause()) {
                all.append(c.getMessage()).append('\n');
            }
            assertThat(all.toString()).as(property).contains(message);
        });
    }
}
