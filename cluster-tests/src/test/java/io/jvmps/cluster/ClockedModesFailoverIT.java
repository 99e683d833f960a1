package io.jvmps.cluster;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server killed with SIGKILL in each clocked mode (SSP with staleness 2, ASYNC, GEO), two workers, restarted
 * at once: the replacement restores the newest checkpoint, the workers roll the survivor back to it and each
 * resumes at its own step there (a checkpoint's step counts both workers' pushes; each part keeps every
 * worker's clock). A push that a server's restored slices already hold is acknowledged without being applied.
 * So every push of the job lands exactly once on every server, as in an unbroken run:
 * <ul>
 * <li>SSP and ASYNC on dynamically sharded data (the workers first train again the data partitions the
 *     rollback undid): each server ends at version 2 epochs x 8 partitions x 8 batches = 128, and the
 *     scheduler leased each partition once;</li>
 * <li>GEO on static shards, a delta push every 2 steps: each server ends at 2 workers x 32 rounds = 64.</li>
 * </ul>
 * Before per-worker clocks, both workers resumed at the checkpoint's step and skipped about half their
 * remaining steps; before SSP recovery, the job failed; before GEO's deltas went through the servers' one
 * update path, GEO wrote no checkpoint while training and a lost server lost the job.
 */
class ClockedModesFailoverIT {
    private static final int GEO_INTERVAL = 2;
    private static final int WORKERS = 2;
    private static final int EPOCHS = 2;
    private static final int PARTITIONS = 8;
    private static final int STEPS = EPOCHS * PARTITIONS * 1024 / PARTITIONS / 16;
    private static final Pattern PARTITION = Pattern.compile("Training data partition (\\d+) of epoch (\\d+) ");
    private static final Pattern RESUMED = Pattern.compile(
            "Recovery 1 done: the servers are back at checkpoint step (\\d+); worker rank (\\d) resumes at step (\\d+)");
    private static final Pattern ACCURACY = Pattern.compile("Test accuracy on this worker's shard .*: ([0-9.]+) ");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SSP", "ASYNC", "GEO"})
    void eachWorkerResumesAtItsOwnStepAndEveryPushIsAppliedOnceOnEveryServer(String mode) throws Exception {
        boolean geo = mode.equals("GEO");
        try (LocalCluster cluster = new LocalCluster(mode.toLowerCase(java.util.Locale.ROOT) + "-server-failover")) {
            String[] checkpoints = {"--ps.checkpoint.dir=" + cluster.freshDir("checkpoints"),
                    "--ps.checkpoint.every-steps=10", "--ps.server.register-retry=500ms",
                    "--ps.consistency.geo-interval=" + GEO_INTERVAL};
            List<NodeProcess> servers = cluster.startJobWithFastFailureDetection(2, WORKERS, mode, checkpoints);
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                List<String> args = new ArrayList<>(List.of("--ps.worker.model=SOFTMAX",
                        "--ps.worker.dataset.format=SYNTHETIC", "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256",
                        "--ps.worker.training.batch-size=16", "--ps.worker.training.epochs=" + EPOCHS,
                        "--ps.worker.training.seed=7", "--ps.worker.training.log-interval=10", "--ps.worker.training.step-delay=100ms",
                        "--ps.node.heartbeat-interval=300ms"));
                if (!geo) {
                    args.addAll(List.of("--ps.worker.dataset.sharding=DYNAMIC", "--ps.worker.dataset.partitions=" + PARTITIONS));
                }
                workers[w] = cluster.startWorker(w, 2, WORKERS, args.toArray(String[]::new));
            }
            NodeProcess victim = servers.get(1);
            long killAfter = geo ? 20 : 40;
            victim.awaitLog(Pattern.compile("Checkpoint step " + killAfter + ": wrote part"), Duration.ofMinutes(3));
            String rank = victim.awaitLog(Pattern.compile("Server rank (\\d) registered"), Duration.ofSeconds(1))
                    .group(1);
            victim.process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-1-replacement", 2, WORKERS,
                    LocalCluster.fastFailureServerArgs(mode, checkpoints));

            long resumedPushes = 0;
            long checkpoint = -1;
            for (NodeProcess worker : workers) {
                Matcher resumed = worker.awaitLog(RESUMED, Duration.ofMinutes(3));
                checkpoint = Long.parseLong(resumed.group(1));
                long step = Long.parseLong(resumed.group(3));
                long pushes = geo ? step / GEO_INTERVAL : step;
                resumedPushes += pushes;
                System.out.printf("%s %s (rank %s): servers back at checkpoint %d, resumed at its step %d%n", mode,
                        worker.name(), resumed.group(2), checkpoint, step);
                assertThat(checkpoint).as("the newest checkpoint, written while training").isGreaterThanOrEqualTo(killAfter);
                assertThat(pushes).as(worker.name() + ": its own clock in a checkpoint of both workers' pushes")
                        .isLessThan(checkpoint).isPositive();
                if (mode.equals("SSP")) {
                    assertThat(pushes).as("SSP keeps the workers within 2 steps").isGreaterThanOrEqualTo(checkpoint / 2 - 3);
                }
            }
            assertThat(resumedPushes).as("the clocks a checkpoint holds add up to at most its update count")
                    .isLessThanOrEqualTo(checkpoint);
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.name() + "\n" + worker.tail()).isZero();
                Matcher accuracy = ACCURACY.matcher(worker.logText());
                assertThat(accuracy.find()).as(worker.tail()).isTrue();
                assertThat(Double.parseDouble(accuracy.group(1))).as(worker.name() + " test accuracy")
                        .isGreaterThan(0.3);
            }
            if (!geo) {
                assertEveryPartitionLeasedOnce(workers);
            }
            assertThat(replacement.logText()).as("the replacement takes rank " + rank + " and restores")
                    .contains("Server rank " + rank + " registered", "Restored");
            List<String> versions = new ArrayList<>();
            for (NodeProcess server : List.of(servers.get(0), replacement)) {
                String applied = LocalCluster.sliceVersions(server);
                versions.add(server.name() + " " + applied);
                long expected = geo ? STEPS / GEO_INTERVAL : STEPS;
                assertThat(applied).as(server.name() + ": pushes applied on its slices")
                        .isEqualTo(expected + "-" + expected);
            }
            System.out.println("slice versions after the job: " + versions);
            NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
        }
    }

    private static void assertEveryPartitionLeasedOnce(NodeProcess[] workers) {
        java.util.Set<String> leased = new java.util.HashSet<>();
        int leases = 0;
        for (NodeProcess worker : workers) {
            Matcher m = PARTITION.matcher(worker.logText());
            while (m.find()) {
                leased.add(m.group(2) + ":" + m.group(1));
                leases++;
            }
        }
        assertThat(leased).as("every partition leased").hasSize(EPOCHS * PARTITIONS);
        assertThat(leases).as("each once").isEqualTo(EPOCHS * PARTITIONS);
        assertThat(workers[0].logText() + workers[1].logText())
                .contains("data partition(s) the rollback undid");
    }
}
