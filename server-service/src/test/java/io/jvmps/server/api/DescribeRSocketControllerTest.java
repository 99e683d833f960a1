package io.jvmps.server.api;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.config.ConsistencyProperties;
import io.jvmps.server.config.OptimizerProperties;
import io.jvmps.server.consistency.ConsistencySettings;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link DescribeRSocketController} in every mode, bound from properties as at start-up: each mode
 * sends its own parameters and 0 for the others. (The route over RSocket: {@code SspRoutesTest}.)
 */
class DescribeRSocketControllerTest {
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({ConsistencyProperties.class, ClusterProperties.class, OptimizerProperties.class})
    static class Wiring {
        @Bean
        ServerIdentity identity() {
            return ServerIdentity.standalone(3);
        }

        @Bean
        ConsistencySettings settings(ConsistencyProperties p) {
            return p.settings();
        }

        @Bean
        DescribeRSocketController controller(ServerIdentity identity, ClusterProperties cluster,
                                             ConsistencySettings settings, OptimizerProperties optimizer) {
            return new DescribeRSocketController(identity, cluster, settings, optimizer);
        }
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(Wiring.class)
            .withPropertyValues("ps.cluster.worker-num=4", "ps.optimizer.type=SGD", "ps.optimizer.learning-rate=0.5",
                    "ps.consistency.staleness=2", "ps.consistency.geo-interval=7",
                    "ps.consistency.geo-learning-rate=0.25");

    private ServerDescription describe(String mode) {
        ServerDescription[] out = new ServerDescription[1];
        runner.withPropertyValues("ps.consistency.mode=" + mode)
                .run(ctx -> out[0] = ctx.getBean(DescribeRSocketController.class).describe());
        return out[0];
    }

    @Test
    void eachModeSendsItsOwnParametersAndZeroForTheOthers() {
        OptimizerSettings sgd = new OptimizerSettings(0.5, 0.9, false, 0.9, 0.999, 1e-8, 0.1, 0, 0, 1.0,
                new ScheduleSettings(ScheduleType.CONSTANT, 0, 1000, 0.1, 0, 0));
        assertThat(describe("SYNC"))
                .isEqualTo(new ServerDescription(3, 4, ConsistencyMode.SYNC, 0, 0, 0.0, "SGD", sgd));
        assertThat(describe("ASYNC"))
                .isEqualTo(new ServerDescription(3, 4, ConsistencyMode.ASYNC, 0, 0, 0.0, "SGD", sgd));
        assertThat(describe("SSP"))
                .isEqualTo(new ServerDescription(3, 4, ConsistencyMode.SSP, 2, 0, 0.0, "SGD", sgd));
        assertThat(describe("GEO"))
                .isEqualTo(new ServerDescription(3, 4, ConsistencyMode.GEO, 0, 7, 0.25, "SGD", sgd));
    }

    @Test
    void everyOptimizerHyperParameterAndTheScheduleAreSent() {
        ServerDescription[] out = new ServerDescription[1];
        runner.withPropertyValues("ps.consistency.mode=SYNC", "ps.optimizer.type=ADAM", "ps.optimizer.learning-rate=0.02",
                        "ps.optimizer.beta1=0.8", "ps.optimizer.beta2=0.99", "ps.optimizer.epsilon=1e-6",
                        "ps.optimizer.schedule=COSINE", "ps.optimizer.warmup-steps=5", "ps.optimizer.total-steps=40",
                        "ps.optimizer.min-learning-rate=0.001")
                .run(ctx -> out[0] = ctx.getBean(DescribeRSocketController.class).describe());
        assertThat(out[0].optimizer()).isEqualTo("ADAM");
        assertThat(out[0].optimizerSettings()).isEqualTo(new OptimizerSettings(0.02, 0.9, false, 0.8, 0.99, 1e-6,
                0.1, 0, 0, 1.0, new ScheduleSettings(ScheduleType.COSINE, 5, 1000, 0.1, 40, 0.001)));
        assertThat(out[0].learningRate()).isEqualTo(0.02);
    }
}
