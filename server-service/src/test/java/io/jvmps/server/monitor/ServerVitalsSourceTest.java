package io.jvmps.server.monitor;

import io.jvmps.common.protocol.ServerVitals;
import io.jvmps.server.consistency.AsyncPolicy;
import io.jvmps.server.consistency.PolicyContext;
import io.jvmps.server.store.DenseStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** What a server's heartbeat reports comes from its own meters: none before they have values, theirs after. */
class ServerVitalsSourceTest {

    @Test
    void reportsNothingBeforeTheFirstPushAndCheckpointThenTheMetersValues() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ServerMetrics metrics = new ServerMetrics(registry);
        ServerVitalsSource source = new ServerVitalsSource(registry, new AsyncPolicy(new PolicyContext(new DenseStore(),
                io.jvmps.optimizer.OptimizerType.SGD.create(new io.jvmps.common.optimizer.OptimizerSettings(0.1, 0, false, 0.9,
                        0.999, 1e-8)), 1,
                Duration.ofSeconds(5))));

        ServerVitals before = source.get();
        before.requireValid();
        assertThat(before.heapUsedBytes()).isPositive();
        assertThat(before.pushP99Seconds()).as("no push yet").isEqualTo(-1);
        assertThat(before.pullP99Seconds()).isEqualTo(-1);
        assertThat(before.checkpointStep()).as("no checkpoint gauges: checkpoints off").isEqualTo(-1);
        assertThat(before.checkpointAgeSeconds()).isEqualTo(-1);

        metrics.timePush(Mono.delay(Duration.ofMillis(20)).thenReturn(1)).block();
        metrics.timePush(Mono.error(new IllegalStateException("refused"))).onErrorResume(e -> Mono.empty()).block();
        // the timer records in doFinally, which may run just after block() returned
        io.jvmps.server.support.Await.until(() -> pushes(registry, "success") == 1 && pushes(registry, "error") == 1,
                Duration.ofSeconds(10), () -> "both pushes timed (success " + pushes(registry, "success") + ", error "
                        + pushes(registry, "error") + ")");
        Gauge.builder("ps.server.checkpoint.step", () -> 30).register(registry);
        Gauge.builder("ps.server.checkpoint.age", () -> 12.5).register(registry);

        ServerVitals after = source.get();
        after.requireValid();
        assertThat(after.pushP99Seconds()).as("the successful push's time").isPositive();
        assertThat(after.pullP99Seconds()).isEqualTo(-1);
        assertThat(after.checkpointStep()).isEqualTo(30);
        assertThat(after.checkpointAgeSeconds()).isEqualTo(12.5);
        assertThat(after.stalenessServed()).isZero();
    }

    private static long pushes(SimpleMeterRegistry registry, String outcome) {
        io.micrometer.core.instrument.Timer timer = registry.find("ps.server.push").tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }
}
