package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.worker.model.ModelType;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints and server failover on real processes: SOFTMAX on synthetic data, ADAM on the servers
 * (so the optimizer state must come back too), SYNC, 2 workers. A reference of 80 steps trained in this
 * process with the servers' Adam, and two cluster runs:
 * <ol>
 * <li>60 steps on 2 servers with checkpoints every 10 steps, where server 1 is killed with SIGKILL after
 *     checkpoint 20 and started again: the replacement takes the dead rank and restores checkpoint 20,
 *     the workers roll the survivor back to it and resume;</li>
 * <li>that job's checkpoint at step 60 restored onto 3 servers and trained on to step 80.</li>
 * </ol>
 * The last run must end on the reference's parameters: that holds only if the failover lost nothing
 * (checkpoint 60 equals an unbroken run at step 60) and the restore onto another server count brought
 * back values, Adam moments and step.
 */
class CheckpointFailoverIT {
    private static final int WORKERS = 2;
    private static final double TOLERANCE = 1e-5;
    private static final int SAMPLES = 1024;
    private static final int BATCH = 16;
    private static final long SEED = 7;
    private static final double LR = 0.01;
    private static final Pattern TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3})");
    private static final Pattern RESUMED = Pattern.compile("Recovery 1 done: the servers are back at checkpoint step (\\d+);");

    @Test
    void aKilledServerIsReplacedAndItsCheckpointResumesOnThreeServersWhereAnUnbrokenRunEnds() throws Exception {
        Map<String, INDArray> reference = ReferenceTraining.withOptimizer(SAMPLES, WORKERS, BATCH, SEED, 80,
                OptimizerType.ADAM.create(new OptimizerSettings(LR, 0, false, 0.9, 0.999, 1e-8)));
        Path checkpoints = fresh("checkpoint-files");
        Path failedOver = train("failover-kill-server-1", 2, 60, true, "--ps.checkpoint.dir=" + checkpoints,
                "--ps.checkpoint.every-steps=10");
        assertThat(stepDirs(checkpoints)).containsExactly("step-000000000040", "step-000000000050",
                "step-000000000060");
        assertThat(checkpoints.resolve("step-000000000060").resolve("part-1-of-2.json")).exists();
        Path resumed = train("checkpoint-resumed-on-3", 3, 80, false, "--ps.checkpoint.dir=" + checkpoints,
                "--ps.checkpoint.every-steps=10", "--ps.checkpoint.keep=2");
        assertThat(stepDirs(checkpoints)).containsExactly("step-000000000070", "step-000000000080");
        assertThat(checkpoints.resolve("step-000000000080").resolve("part-2-of-3.json")).exists();

        for (ParamSpec spec : ModelType.SOFTMAX.create(784, 10).params()) {
            INDArray expected = reference.get(spec.name());
            assertThat(maxAbsDiff(read(failedOver, 0, spec.name()), expected))
                    .as("%s after 60 steps differs from after 80 (the test can fail)", spec.name()).isGreaterThan(1e-4);
            for (int w = 0; w < WORKERS; w++) {
                assertThat(maxAbsDiff(read(resumed, w, spec.name()), expected))
                        .as("worker %d %s: 60 steps with a server failover, restore onto 3 servers, 20 more, vs 80 "
                                + "unbroken", w, spec.name()).isLessThan(TOLERANCE);
            }
        }
    }

    /**
     * A server and a worker lost at once, as when the host running both goes (the server stopped with
     * SIGTERM, so it leaves the scheduler; the worker killed): both are started again. The
     * new worker takes the dead worker's rank, finds the servers at different steps (the new server restored
     * checkpoint 20, the survivor did not), rolls them back to their newest checkpoint and joins there; the
     * job finishes with both workers on the same parameters. (Not compared with an unbroken run: in SYNC the
     * survivor goes on alone once the scheduler has dropped the dead worker, until the new one joins.)
     */
    @Test
    void aServerAndAWorkerLostTogetherAreReplacedAndTheJobFinishesOnOneModel() throws Exception {
        Path checkpoints = fresh("host-loss-checkpoint-files");
        Path out = train("failover-kill-server-1-and-worker-1", 2, 60, Loss.SERVER_AND_WORKER,
                "--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=10");
        for (ParamSpec spec : ModelType.SOFTMAX.create(784, 10).params()) {
            INDArray first = read(out, 0, spec.name());
            assertThat(first.isInfinite().any() || first.isNaN().any()).as(spec.name()).isFalse();
            assertThat(maxAbsDiff(read(out, 1, spec.name()), first)).as("SYNC workers end on one " + spec.name())
                    .isLessThan(1e-6);
        }
    }

    /** What a run loses after checkpoint 20. */
    private enum Loss { NONE, SERVER, SERVER_AND_WORKER }

    private static Path train(String name, int servers, int steps, boolean killServer1, String... extraServerArgs)
            throws Exception {
        return train(name, servers, steps, killServer1 ? Loss.SERVER : Loss.NONE, extraServerArgs);
    }

    private static Path train(String name, int servers, int steps, Loss loss, String... extraServerArgs)
            throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("params");
            deleteTree(out);
            cluster.startScheduler(servers, WORKERS, "--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms");
            List<String> serverArgs = new ArrayList<>(List.of("--ps.optimizer.type=ADAM",
                    "--ps.optimizer.learning-rate=" + LR, "--ps.consistency.mode=SYNC",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms"));
            serverArgs.addAll(List.of(extraServerArgs));
            String[] serverArgv = serverArgs.toArray(String[]::new);
            List<NodeProcess> serverNodes = new ArrayList<>();
            for (int s = 0; s < servers; s++) {
                serverNodes.add(cluster.startServer(s, servers, WORKERS, serverArgv));
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            String[] workerArgv = {"--ps.worker.model=SOFTMAX",
                    "--ps.worker.dataset.format=SYNTHETIC", "--ps.worker.dataset.train-limit=" + SAMPLES, "--ps.worker.dataset.test-limit=128",
                    "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.epochs=4", "--ps.worker.training.max-steps=" + steps,
                    "--ps.worker.training.seed=" + SEED, "--ps.worker.training.log-interval=10", "--ps.worker.output.parameters-dir=" + out,
                    "--ps.worker.training.step-delay=" + (loss == Loss.NONE ? "0s" : "100ms")};
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, servers, WORKERS, workerArgv);
            }
            if (loss != Loss.NONE) {
                killAndReplace(cluster, serverNodes.get(1), workers, servers, serverArgv,
                        loss == Loss.SERVER_AND_WORKER ? workerArgv : null);
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
            }
            serverNodes.forEach(NodeProcess::requestStop); // SIGTERM: pending checkpoint writes finish first
            for (NodeProcess server : serverNodes) {
                server.awaitStopped();
                assertThat(server.logText()).as(server.name()).doesNotContain("could not be written");
            }
            return out;
        }
    }

    /**
     * Kills server 1 after checkpoint 20 and starts another in its place; with {@code workerArgs}, stops
     * server 1 with SIGTERM instead, kills worker 1 at the same moment and starts another with those
     * arguments too (it replaces workers[1]).
     */
    private static void killAndReplace(LocalCluster cluster, NodeProcess victim, NodeProcess[] workers, int servers,
                                       String[] serverArgs, String[] workerArgs) throws Exception {
        victim.awaitLog(Pattern.compile("Checkpoint step 20: wrote part"), Duration.ofMinutes(3));
        // ranks follow registration order, not launch order
        String rank = victim.awaitLog(Pattern.compile("Server rank (\\d) registered"), Duration.ofSeconds(1)).group(1);
        if (workerArgs != null) {
            // as when the host's engine is stopped: the server gets SIGTERM and leaves the scheduler, which
            // must still let its replacement take the rank; the worker dies outright
            victim.requestStop();
            workers[1].process().destroyForcibly().waitFor();
            victim.awaitStopped();
        } else {
            victim.process().destroyForcibly().waitFor();
        }
        LocalTime killedAt = LocalTime.now();
        NodeProcess replacement = cluster.startServerNamed("server-1-replacement", servers, WORKERS, serverArgs);
        if (workerArgs != null) {
            workers[1] = cluster.startWorkerNamed("worker-1-replacement", servers, WORKERS, workerArgs);
        }
        for (NodeProcess worker : workers) {
            Matcher resumed = worker.awaitLog(RESUMED, Duration.ofMinutes(3));
            long step = Long.parseLong(resumed.group(1));
            assertThat(step).as(worker.name() + " resumes at a checkpoint").isIn(20L, 30L, 40L);
            System.out.printf("%s: server 1 (and with a host loss worker 1) killed at %s, resumed at checkpoint step %d at %s%n", worker.name(),
                    killedAt, step, timeOf(worker, RESUMED));
        }
        assertThat(replacement.logText()).as(replacement.name() + " takes the dead rank " + rank)
                .contains("Server rank " + rank + " registered", "Restored");
    }

    private static String timeOf(NodeProcess node, Pattern what) {
        for (String line : node.logText().split("\n")) {
            if (what.matcher(line).find()) {
                Matcher t = TIME.matcher(line);
                return t.find() ? t.group(1) : line;
            }
        }
        return "?";
    }

    private static Path fresh(String name) throws IOException {
        Path dir = Path.of("target", "cluster-logs", name).toAbsolutePath();
        deleteTree(dir);
        return dir;
    }

    private static List<String> stepDirs(Path dir) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("step-")).sorted().toList();
        }
    }

    private static INDArray read(Path out, int worker, String param) {
        return Nd4j.createFromNpyFile(out.resolve("worker-" + worker).resolve(param + ".npy").toFile());
    }

    private static double maxAbsDiff(INDArray a, INDArray b) {
        INDArray diff = a.reshape(b.shape()).sub(b);
        return Math.max(Math.abs(diff.maxNumber().doubleValue()), Math.abs(diff.minNumber().doubleValue()));
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
