package io.jvmps.scheduler.health;

import io.jvmps.common.cluster.ClusterProperties;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.scheduler.config.SchedulerProperties;
import io.jvmps.scheduler.registry.NodeIdGenerator;
import io.jvmps.scheduler.registry.NodeRegistry;
import io.jvmps.scheduler.support.MutableClock;
import io.jvmps.scheduler.support.Requests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class FailureDetectorTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2024-01-01T00:00:00Z"));
    private NodeRegistry registry;
    private FailureDetector detector;
    private String server;
    private String worker;

    @BeforeEach
    void setUp() {
        registry = new NodeRegistry(new ClusterProperties(1, 1), clock, clock, new NodeIdGenerator(new Random(1)));
        SchedulerProperties props = new SchedulerProperties("127.0.0.1", 8080, Duration.ofSeconds(30),
                Duration.ofSeconds(1), 1L, "");
        detector = new FailureDetector(registry, clock, props);
        server = registry.register(Requests.server(9000)).node().nodeId();
        worker = registry.register(Requests.worker()).node().nodeId();
    }

    @Test
    void nodeIsAliveUntilTheTimeoutAndDeadAtIt(CapturedOutput output) {
        clock.advance(Duration.ofMillis(29_999));
        assertThat(detector.check()).isEmpty();
        assertThat(registry.epoch()).isEqualTo(2);

        clock.advance(Duration.ofMillis(1));
        assertThat(detector.check()).extracting(NodeInfo::nodeId).containsExactlyInAnyOrder(server, worker);

        assertThat(registry.require(server).state()).isEqualTo(NodeState.DEAD);
        assertThat(registry.require(worker).state()).isEqualTo(NodeState.DEAD);
        assertThat(registry.epoch()).as("one epoch per state change").isEqualTo(4);
        assertThat(output).contains("Node " + server + " (server rank 0) missed heartbeats for 30000 ms, marked DEAD");
        assertThat(output).contains("Node " + worker + " (worker rank 0) missed heartbeats for 30000 ms, marked DEAD");
    }

    @Test
    void heartbeatsKeepANodeAlive() {
        for (int i = 0; i < 10; i++) {
            clock.advance(Duration.ofSeconds(20));
            registry.heartbeat(server);
            detector.check();
        }
        assertThat(registry.require(server).state()).isEqualTo(NodeState.ALIVE);
        assertThat(registry.require(worker).state()).isEqualTo(NodeState.DEAD);
    }

    @Test
    void deadNodeIsReportedOnceAndRevivedByAHeartbeat(CapturedOutput output) {
        clock.advance(Duration.ofSeconds(45));
        registry.heartbeat(worker);
        assertThat(detector.check()).extracting(NodeInfo::nodeId).containsExactly(server);
        assertThat(output).contains("Node " + server + " (server rank 0) missed heartbeats for 45000 ms, marked DEAD");
        long epoch = registry.epoch();

        clock.advance(Duration.ofSeconds(60));
        registry.heartbeat(worker);
        assertThat(detector.check()).as("already DEAD, not reported again").isEmpty();
        assertThat(registry.epoch()).isEqualTo(epoch);

        registry.heartbeat(server);
        assertThat(registry.require(server).state()).isEqualTo(NodeState.ALIVE);
        assertThat(registry.epoch()).isEqualTo(epoch + 1);
    }

    @Test
    void aStepOfTheHostsDateMarksNobodyDeadOrAlive() {
        clock.setDate(Instant.parse("2024-01-01T05:00:00Z"));
        assertThat(detector.check()).as("the date jumped 5 hours, no time passed").isEmpty();
        clock.setDate(Instant.parse("2023-12-31T00:00:00Z"));
        clock.advance(Duration.ofSeconds(29));
        assertThat(detector.check()).as("the date stepped back a day, 29 s passed").isEmpty();
        registry.heartbeat(server);
        assertThat(registry.require(server).state()).isEqualTo(NodeState.ALIVE);
        assertThat(registry.require(worker).state()).isEqualTo(NodeState.ALIVE);

        clock.advance(Duration.ofSeconds(1));
        assertThat(detector.check()).as("30 s of real silence, whatever the date says")
                .extracting(NodeInfo::nodeId).containsExactly(worker);
    }

    @Test
    void finishedNodesAreNotWatched() {
        registry.leave(worker);
        clock.advance(Duration.ofMinutes(5));
        assertThat(detector.check()).extracting(NodeInfo::nodeId).containsExactly(server);
        assertThat(registry.require(worker).state()).isEqualTo(NodeState.FINISHED);
    }
}
