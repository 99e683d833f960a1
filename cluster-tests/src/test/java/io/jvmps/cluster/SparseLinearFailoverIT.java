package io.jvmps.cluster;

import io.jvmps.client.dataset.MnistSplit;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server of the sparse linear job killed with SIGKILL: its share of the weight table and of the bias
 * comes back from the checkpoint. One worker, 2 servers, SYNC, Adam. A reference job runs 60 steps unbroken;
 * the same job with checkpoints every 10 steps loses server 1 right after checkpoint 20, a replacement
 * restores its part, the survivor rolls back and the worker trains again from the checkpoint. Both exports
 * must hold the same weights and bias (within 1e-5): only when every trained row with its Adam moments came
 * back on the right server.
 */
class SparseLinearFailoverIT {
    private static final double TOLERANCE = 1e-5;
    private static final Pattern RESUMED = Pattern.compile("Recovery 1 done: the servers are back at checkpoint step (\\d+);");
    private static final Pattern SPARSE_ROWS = Pattern.compile("Checkpoint step 20: wrote part \\d of 2 \\(\\d+ slices, (\\d+) sparse rows");

    @Test
    void aKilledServerGetsItsWeightRowsBackAndTheExportEqualsAnUnbrokenRuns() throws Exception {
        Path reference = train("sparse-linear-reference", false);
        Path failedOver = train("sparse-linear-failover", true);
        for (String name : List.of("W", "b")) {
            INDArray expected = read(reference, name);
            INDArray actual = read(failedOver, name);
            assertThat(expected.amaxNumber().doubleValue()).as(name + " was trained (the test can fail)")
                    .isGreaterThan(0.01);
            assertThat(expected.sub(actual).amaxNumber().doubleValue())
                    .as(name + ": failover and restore vs unbroken, largest difference").isLessThan(TOLERANCE);
        }
    }

    private static INDArray read(Path export, String variable) {
        return SameDiff.load(export.resolve("model.sd").toFile(), false).getVariable(variable).getArr();
    }

    private static Path train(String name, boolean killAServer) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path files = cluster.freshDir("user-files");
            Path train = UserModelFiles.mnistLibSvm(files.resolve("train.svm"), MnistSplit.TRAIN, 3000);
            Path test = UserModelFiles.mnistLibSvm(files.resolve("test.svm"), MnistSplit.TEST, 200);
            Path export = files.resolve("export");
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(2, 1, "--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms");
            List<String> serverArgs = new ArrayList<>(List.of("--ps.optimizer.type=ADAM",
                    "--ps.optimizer.learning-rate=0.01", "--ps.consistency.mode=SYNC",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms"));
            if (killAServer) {
                serverArgs.addAll(List.of("--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=10"));
            }
            String[] serverArgv = serverArgs.toArray(String[]::new);
            List<NodeProcess> servers = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                servers.add(cluster.startServer(s, 2, 1, serverArgv));
            }
            NodeProcess worker = cluster.startWorker(0, 2, 1, "--ps.worker.job=SPARSE_LINEAR",
                    "--ps.worker.dataset.format=LIBSVM", "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + test,
                    "--ps.worker.dataset.num-features=784", "--ps.worker.training.batch-size=32", "--ps.worker.training.max-steps=60",
                    "--ps.worker.training.seed=5", "--ps.worker.output.model-dir=" + export,
                    "--ps.worker.training.step-delay=" + (killAServer ? "100ms" : "0s"));
            if (killAServer) {
                NodeProcess victim = servers.get(1);
                Matcher written = victim.awaitLog(SPARSE_ROWS, Duration.ofMinutes(3));
                assertThat(Long.parseLong(written.group(1))).as("table rows in the victim's checkpoint part")
                        .isPositive();
                String rank = victim.awaitLog(Pattern.compile("Server rank (\\d) registered"), Duration.ofSeconds(1))
                        .group(1);
                victim.process().destroyForcibly().waitFor();
                NodeProcess replacement = cluster.startServerNamed("server-1-replacement", 2, 1, serverArgv);
                long step = Long.parseLong(worker.awaitLog(RESUMED, Duration.ofMinutes(3)).group(1));
                assertThat(step).as("the worker resumes at a checkpoint").isIn(20L, 30L, 40L);
                replacement.awaitLog(Pattern.compile("Server rank " + rank + " registered"), Duration.ofSeconds(5));
                assertThat(replacement.logText()).as(replacement.name()).contains("Sparse tables", "will be restored");
            }
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                    .isZero();
            assertThat(worker.logText()).contains("Exported the trained model to");
            return export;
        }
    }
}
