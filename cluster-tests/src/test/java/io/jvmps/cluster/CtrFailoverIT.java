package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server of a wide-and-deep job killed with SIGKILL: its sparse tables come back from the checkpoint.
 * One worker, 2 servers, SYNC, lazy Adam on the tables and Adam on the dense part, direct lookups. A
 * reference job runs 60 steps unbroken; the same job with checkpoints every 10 steps loses a server right
 * after checkpoint 20, a replacement takes its rank and restores its share of the dense slices and of the
 * tables' rows, the survivor rolls back, and the worker trains again from the checkpoint. Both jobs must
 * leave the same tables (within 1e-5): that holds only if every trained row, its Adam moments and its
 * update count were in the checkpoint and came back on the right server. The tables admit ids on their second push
 * and evict rows idle for 12 steps, so it also holds only if the admission counts and the rows' clocks came back:
 * an id half-admitted at the checkpoint, or a row's age, restored wrong would change which rows exist.
 */
class CtrFailoverIT {
    private static final double TOLERANCE = 1e-5;
    private static final Pattern RESUMED = Pattern.compile("Recovery 1 done: the servers are back at checkpoint step (\\d+);");
    private static final Pattern SPARSE_ROWS = Pattern.compile("Checkpoint step 20: wrote part \\d of 2 \\(\\d+ slices, (\\d+) sparse rows");
    private static final List<String> JOB = List.of("--ps.worker.job=CTR", "--ps.worker.ctr.fields=6",
            "--ps.worker.ctr.vocabulary=400", "--ps.worker.ctr.crosses=2", "--ps.worker.ctr.train-size=4000",
            "--ps.worker.ctr.test-size=1000", "--ps.worker.ctr.dim=4", "--ps.worker.ctr.hidden1=16",
            "--ps.worker.ctr.hidden2=8", "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=1",
            "--ps.worker.training.max-steps=60", "--ps.worker.training.log-interval=10", "--ps.worker.training.seed=5",
            "--ps.worker.ctr.vocab-cache-size=0", "--ps.worker.ctr.admit-after=2", "--ps.worker.ctr.evict-after-steps=12");

    @Test
    void aKilledServerGetsItsTableRowsBackAndTheJobEndsWhereAnUnbrokenOneDoes() throws Exception {
        Path reference = train("ctr-reference", false);
        Path failedOver = train("ctr-failover-kill-server", true);
        for (String table : List.of("ctr.wide", "ctr.deep")) {
            CtrEmbeddingIT.TableDiff diff = CtrEmbeddingIT.TableDiff.of(
                    CtrEmbeddingIT.read(reference.resolve("worker-0"), table),
                    CtrEmbeddingIT.read(failedOver.resolve("worker-0"), table));
            assertThat(diff.largest()).as(table + ": rows were trained (the test can fail)").isGreaterThan(0.01);
            assertThat(diff.maxDiff()).as(table + ": failover and restore vs unbroken, largest difference")
                    .isLessThan(TOLERANCE);
        }
    }

    private static Path train(String name, boolean killAServer) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.freshDir("tables");
            Path checkpoints = cluster.freshDir("checkpoints");
            cluster.startScheduler(2, 1, "--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms");
            List<String> serverArgs = new ArrayList<>(List.of("--ps.optimizer.type=ADAM",
                    "--ps.optimizer.learning-rate=0.02", "--ps.consistency.mode=SYNC",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms"));
            if (killAServer) {
                serverArgs.addAll(List.of("--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=10"));
            }
            String[] serverArgv = serverArgs.toArray(String[]::new);
            List<NodeProcess> servers = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                servers.add(cluster.startServer(s, 2, 1, serverArgv));
            }
            List<String> workerArgs = new ArrayList<>(JOB);
            workerArgs.add("--ps.worker.output.parameters-dir=" + out);
            workerArgs.add("--ps.worker.training.step-delay=" + (killAServer ? "100ms" : "0s"));
            NodeProcess worker = cluster.startWorker(0, 2, 1, workerArgs.toArray(String[]::new));
            if (killAServer) {
                NodeProcess victim = servers.get(1);
                Matcher written = victim.awaitLog(SPARSE_ROWS, Duration.ofMinutes(3));
                assertThat(Long.parseLong(written.group(1))).as("table rows in the victim's checkpoint part")
                        .isPositive();
                String rank = victim.awaitLog(Pattern.compile("Server rank (\\d) registered"), Duration.ofSeconds(1))
                        .group(1);
                victim.process().destroyForcibly().waitFor();
                long killedAt = System.nanoTime();
                NodeProcess replacement = cluster.startServerNamed("server-1-replacement", 2, 1, serverArgv);
                long step = Long.parseLong(worker.awaitLog(RESUMED, Duration.ofMinutes(3)).group(1));
                System.out.printf("CTR worker resumed at checkpoint step %d, %.1f s after the kill%n", step,
                        (System.nanoTime() - killedAt) / 1e9);
                assertThat(step).as("the worker resumes at a checkpoint").isIn(20L, 30L, 40L);
                replacement.awaitLog(Pattern.compile("Server rank " + rank + " registered"), Duration.ofSeconds(5));
                assertThat(replacement.logText()).as(replacement.name()).contains("Sparse tables", "will be restored");
            }
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                    .isZero();
            return out;
        }
    }
}
