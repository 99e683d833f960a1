package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real jars started with one bad setting each: every one exits non-zero at start-up with one line
 * {@code jvm-ps: cannot start: ...} naming the property (and the accepted values for enums).
 */
class BadConfigurationIT {
    private static final String LINE = "jvm-ps: cannot start: ";

    @Test
    void eachRoleNamesTheBadPropertyInOneLine() throws Exception {
        try (LocalCluster cluster = new LocalCluster("bad-configuration")) {
            NodeProcess scheduler = cluster.startRaw("scheduler", "scheduler-service", "--ps.scheduler.port=70000");
            NodeProcess server = cluster.startRaw("server", "server-service", "--ps.consistency.staleness=-1");
            NodeProcess model = cluster.startRaw("worker-model", "worker-service", "--ps.worker.model=RESNET");
            NodeProcess data = cluster.startRaw("worker-data", "worker-service",
                    "--ps.worker.data-path=/nonexistent/mnist");

            expect(scheduler, LINE + "ps.scheduler.port must be between 1 and 65535");
            expect(server, LINE + "ps.consistency.staleness must be >= 0");
            expect(model, LINE + "ps.worker.model=RESNET is not valid; accepted values: LENET5, SOFTMAX");
            expect(data, LINE + "[INVALID_ARGUMENT] MNIST data not found in directory /nonexistent/mnist (which does not exist)");
            assertThat(data.logText()).contains("point ps.worker.data-path at a directory");
        }
    }

    private static void expect(NodeProcess node, String line) {
        assertThat(node.awaitExit(Duration.ofMinutes(2))).as(node.name() + "\n" + node.tail()).isNotZero();
        assertThat(node.logText()).as(node.name()).contains(line);
    }
}
