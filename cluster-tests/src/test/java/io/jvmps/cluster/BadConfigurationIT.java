package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real jars started with one bad setting each: every one exits non-zero at start-up with one line
 * {@code jvm-ps: cannot start: ...} naming the property (and the accepted values for enums). A setting under its
 * old name is bound to its new one, which the error names.
 */
class BadConfigurationIT {
    private static final String LINE = "jvm-ps: cannot start: ";

    @Test
    void eachRoleNamesTheBadPropertyInOneLine() throws Exception {
        try (LocalCluster cluster = new LocalCluster("bad-configuration")) {
            NodeProcess scheduler = cluster.startRaw("scheduler", "scheduler-service", "--ps.scheduler.port=70000");
            NodeProcess server = cluster.startRaw("server", "server-service", "--ps.consistency.staleness=-1");
            NodeProcess model = cluster.startRaw("worker-model", "worker-service", "--ps.worker.model=RESNET");
            // under its old name: bound to ps.worker.dataset.path, with a warning
            NodeProcess data = cluster.startRaw("worker-data", "worker-service",
                    "--ps.worker.data-path=/nonexistent/mnist");
            Path mlp = UserModelFiles.pixelMlp(cluster.freshDir("user-files").resolve("mlp.sd"), 1);
            NodeProcess graph = cluster.startRaw("worker-graph", "worker-service", "--ps.worker.model=" + mlp,
                    "--ps.worker.graph.input=pixels", "--ps.worker.graph.label=digit", "--ps.worker.graph.loss=loss");
            NodeProcess csv = cluster.startRaw("worker-csv", "worker-service", "--ps.worker.dataset.format=CSV");

            expect(scheduler, LINE + "ps.scheduler.port must be between 1 and 65535");
            expect(server, LINE + "ps.consistency.staleness must be >= 0");
            expect(model, LINE + "[INVALID_ARGUMENT] ps.worker.model='RESNET' is neither a built-in model [LENET5, "
                    + "SOFTMAX], a ModelProvider on the class path [], nor a model file (no file at ");
            expect(data, LINE + "[INVALID_ARGUMENT] MNIST data not found in directory /nonexistent/mnist (which does not exist)");
            assertThat(data.logText()).contains("point ps.worker.dataset.path at a directory")
                    .contains("ps.worker.data-path (set in commandLineArgs) is an old name: use ps.worker.dataset.path");
            expect(graph, LINE + "[INVALID_ARGUMENT] model file mlp.sd has no variable 'loss' (ps.worker.graph.loss); "
                    + "its variables: [");
            assertThat(graph.logText()).contains("hidden_W:VARIABLE").contains("pixels:PLACEHOLDER").contains("xent:");
            expect(csv, LINE + "[INVALID_ARGUMENT] ps.worker.dataset.train-file is not set (ps.worker.dataset.format=CSV reads it)");
        }
    }

    private static void expect(NodeProcess node, String line) {
        assertThat(node.awaitExit(Duration.ofMinutes(2))).as(node.name() + "\n" + node.tail()).isNotZero();
        assertThat(node.logText()).as(node.name()).contains(line)
                .as(node.name() + ": a named error is Spring's short report, not a stack trace").doesNotContain("\tat ")
                .as(node.name() + ": said once, not also in the context's WARN").doesNotContain("cancelling refresh attempt");
    }
}
