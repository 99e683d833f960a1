package io.jvmps.server.config;

import io.jvmps.common.cluster.ClusterProperties;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
            assertThat(opt.initialAccumulator()).isEqualTo(0.1);
            assertThat(opt.l1()).isZero();
            assertThat(opt.l2()).isZero();
            assertThat(opt.beta()).isEqualTo(1.0);
            assertThat(opt.schedule().name()).isEqualTo("CONSTANT");
            assertThat(opt.warmupSteps()).isZero();
            assertThat(opt.stepSize()).isEqualTo(1000);
            assertThat(opt.gamma()).isEqualTo(0.1);
            assertThat(opt.totalSteps()).isZero();
            assertThat(opt.minLearningRate()).isZero();
            assertThat(opt.settings().learningRateSchedule().rate(1)).isEqualTo(0.001);
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
    void newOptimizersAndSchedulesBind() {
        runner.withPropertyValues("ps.optimizer.type=ftrl", "ps.optimizer.l1=0.5", "ps.optimizer.l2=0.25",
                        "ps.optimizer.beta=2", "ps.optimizer.learning-rate=0.1", "ps.optimizer.schedule=cosine",
                        "ps.optimizer.total-steps=10", "ps.optimizer.min-learning-rate=0.01",
                        "ps.optimizer.warmup-steps=5")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    OptimizerProperties opt = ctx.getBean(OptimizerProperties.class);
                    assertThat(opt.type().name()).isEqualTo("FTRL");
                    assertThat(opt.settings().l1()).isEqualTo(0.5);
                    assertThat(opt.settings().l2()).isEqualTo(0.25);
                    assertThat(opt.settings().beta()).isEqualTo(2.0);
                    // warm-up 5: update 1 -> 0.1 * 1/5; cosine midpoint at post-warm-up update 6 -> 0.055
                    assertThat(opt.settings().learningRateSchedule().rate(1)).isCloseTo(0.02, within(1e-12));
                    assertThat(opt.settings().learningRateSchedule().rate(11)).isCloseTo(0.055, within(1e-12));
                    assertThat(opt.type().create(opt.settings()).describe())
                            .startsWith("FTRL(lr=0.1").contains("COSINE(total-steps=10");
                });
        // COSINE without total-steps decays over the job's length, which the job tells when it declares its model
        runner.withPropertyValues("ps.optimizer.schedule=COSINE", "ps.optimizer.warmup-steps=200",
                        "ps.optimizer.learning-rate=0.1")
                .run(ctx -> {
                    OptimizerProperties opt = ctx.getBean(OptimizerProperties.class);
                    assertThat(opt.cosineSizedByJob()).isTrue();
                    io.jvmps.common.optimizer.schedule.JobLength job = new io.jvmps.common.optimizer.schedule.JobLength();
                    var schedule = opt.settings(job).learningRateSchedule();
                    assertThat(schedule.rate(300)).isEqualTo(0.1); // not told yet: the warm-up, then the base rate
                    job.tell(190); // a 190-update job: the warm-up is capped at half of it (95)
                    assertThat(schedule.rate(1)).isCloseTo(0.1 / 95, within(1e-12));
                    assertThat(schedule.rate(95)).isCloseTo(0.1, within(1e-12));
                    assertThat(schedule.rate(190)).isCloseTo(0.1 * (1 + Math.cos(Math.PI * 94 / 95)) / 2,
                            within(1e-12));
                    assertThat(schedule.rate(191)).isZero();
                });
        runner.withPropertyValues("ps.optimizer.type=adagrad", "ps.optimizer.initial-accumulator=0",
                        "ps.optimizer.schedule=STEP", "ps.optimizer.step-size=1", "ps.optimizer.gamma=1")
                .run(ctx -> assertThat(ctx.getBean(OptimizerProperties.class).settings().initialAccumulator())
                        .isZero());
    }

    @Test
    void badOptimizerAndScheduleValuesNameTheProperty() {
        expectFailure("ps.optimizer.initial-accumulator=-0.1", "ps.optimizer.initial-accumulator must be >= 0");
        expectFailure("ps.optimizer.l1=-1", "ps.optimizer.l1 must be >= 0");
        expectFailure("ps.optimizer.l2=-0.5", "ps.optimizer.l2 must be >= 0");
        expectFailure("ps.optimizer.beta=0", "ps.optimizer.beta must be > 0");
        expectFailure("ps.optimizer.schedule=linear",
                "ps.optimizer.schedule=linear is not valid; accepted values: CONSTANT, STEP, COSINE");
        expectFailure("ps.optimizer.warmup-steps=-1", "ps.optimizer.warmup-steps must be >= 0");
        expectFailure("ps.optimizer.step-size=0", "ps.optimizer.step-size must be >= 1");
        expectFailure("ps.optimizer.gamma=0", "ps.optimizer.gamma must be in (0, 1]");
        expectFailure("ps.optimizer.gamma=1.5", "ps.optimizer.gamma must be in (0, 1]");
        expectFailure("ps.optimizer.total-steps=-3", "ps.optimizer.total-steps must be >= 0");
        expectFailure("ps.optimizer.min-learning-rate=-0.1",
                "ps.optimizer.min-learning-rate must be in [0, ps.optimizer.learning-rate]");
        expectFailure(new String[] {"ps.optimizer.learning-rate=0.01", "ps.optimizer.min-learning-rate=0.1"},
                "ps.optimizer.min-learning-rate must be in [0, ps.optimizer.learning-rate]");
        expectFailure(new String[] {"ps.optimizer.type=FTRL", "ps.optimizer.schedule=COSINE",
                "ps.optimizer.total-steps=100"},
                "ps.optimizer.min-learning-rate must be > 0 when ps.optimizer.type is FTRL");
        expectFailure("ps.optimizer.type=ROWWISE_ADAGRAD",
                "ps.optimizer.type=ROWWISE_ADAGRAD updates sparse table rows only");
    }

    @Test
    void badValuesNameTheProperty() {
        expectFailure("ps.optimizer.learning-rate=-1", "ps.optimizer.learning-rate must be > 0");
        expectFailure("ps.optimizer.beta2=1", "ps.optimizer.beta2 must be in [0, 1)");
        expectFailure("ps.transport.max-inbound-payload-bytes=1000", "ps.transport.max-inbound-payload-bytes");
        expectFailure("ps.server.pull-timeout=0s", "ps.server.pull-timeout must be positive");
        expectFailure("ps.cluster.worker-num=0", "ps.cluster.worker-num must be between 1 and 4096");
        expectFailure("ps.optimizer.type=rmsprop",
                "ps.optimizer.type=rmsprop is not valid; accepted values: SGD, MOMENTUM, ADAGRAD, ADAM, FTRL");
        expectFailure("ps.consistency.mode=BSP",
                "ps.consistency.mode=BSP is not valid; accepted values: SYNC, ASYNC, SSP, GEO");
    }

    private void expectFailure(String property, String message) {
        expectFailure(new String[] {property}, message);
    }

    private void expectFailure(String[] properties, String message) {
        runner.withPropertyValues(properties).run(ctx -> {
            assertThat(ctx).hasFailed();
            Throwable t = ctx.getStartupFailure();
            StringBuilder all = new StringBuilder();
            for (Throwable c = t; c != null; c = c.getCause()) {
                all.append(c.getMessage()).append('\n');
            }
            // What a user sees first: one line with the property (and, for enums, the accepted values).
            assertThat(io.jvmps.common.startup.StartupFailureReporter.describe(t)).as(all.toString()).contains(message)
                    .doesNotContain("\n");
        });
    }
}
