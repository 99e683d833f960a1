package io.jvmps.server.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad {@code ps.*} values fail start-up with a message naming the property. */
class PropertiesValidationTest {
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({OptimizerProperties.class, ConsistencyProperties.class, TransportProperties.class,
            PsServerProperties.class, ClusterProperties.class})
    static class Props {
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Props.class);

    @Test
    void defaultsAreValid() {
        runner.run(ctx -> {
            assertThat(ctx).hasNotFailed();
            OptimizerProperties opt = ctx.getBean(OptimizerProperties.class);
            assertThat(opt.type().name()).isEqualTo("ADAM");
            assertThat(opt.learningRate()).isEqualTo(0.001);
            assertThat(opt.epsilon()).isEqualTo(1e-8);
            assertThat(ctx.getBean(ConsistencyProperties.class).mode().name()).isEqualTo("SYNC");
            assertThat(ctx.getBean(TransportProperties.class).maxInboundPayloadBytes()).isEqualTo(4 << 20);
            assertThat(ctx.getBean(TransportProperties.class).maxTensorBytes()).isEqualTo(1L << 30);
            assertThat(ctx.getBean(PsServerProperties.class).pullTimeout()).hasSeconds(120);
        });
    }

    @Test
    void lowerCaseEnumsBind() {
        runner.withPropertyValues("ps.optimizer.type=momentum", "ps.consistency.mode=async")
                .run(ctx -> assertThat(ctx.getBean(OptimizerProperties.class).type().name()).isEqualTo("MOMENTUM"));
    }

    @Test
    void badValuesNameTheProperty() {
        expectFailure("ps.optimizer.learning-rate=-1", "ps.optimizer.learning-rate must be > 0");
        expectFailure("ps.optimizer.beta2=1", "ps.optimizer.beta2 must be in [0, 1)");
        expectFailure("ps.transport.max-inbound-payload-bytes=1000", "ps.transport.max-inbound-payload-bytes");
        expectFailure("ps.server.pull-timeout=0s", "ps.server.pull-timeout must be positive");
        expectFailure("ps.cluster.worker-num=0", "ps.cluster.worker-num must be between 1 and 4096");
        expectFailure("ps.optimizer.type=rmsprop", "ps.optimizer.type");
    }

    private void expectFailure(String property, String message) {
        runner.withPropertyValues(property).run(ctx -> {
            assertThat(ctx).hasFailed();
            Throwable t = ctx.getStartupFailure();
            StringBuilder all = new StringBuilder();
            for (Throwable c = t; c != null; c = c.getCause()) {
                all.append(c.getMessage()).append('\n');
            }
            assertThat(all.toString()).contains(message);
        });
    }
}
