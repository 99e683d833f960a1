package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.model.ModelType;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoints on real processes: SOFTMAX on synthetic data, ADAM on the servers (so optimizer state
 * matters), SYNC, 2 workers. A job checkpointed by 2 servers at steps 10 and 20, restored onto 3
 * servers and trained on to step 40, ends on the parameters of an uninterrupted 40-step run: the
 * values, the Adam moments and the step all came back, cut for another server count. The 3-server
 * checkpoint at step 40 then restores onto 1 server with exactly those values.
 */
class CheckpointRestoreIT {
    private static final int WORKERS = 2;
    private static final double TOLERANCE = 1e-5;

    @Test
    void aTwoServerCheckpointResumesOnThreeServersAndThenOnOne() throws Exception {
        Path checkpoints = Path.of("target", "cluster-logs", "checkpoint-restore-files").toAbsolutePath();
        deleteTree(checkpoints);

        Path uninterrupted = train("checkpoint-uninterrupted", 2, 40);
        Path firstHalf = train("checkpoint-first-half", 2, 20, "--ps.checkpoint.dir=" + checkpoints,
                "--ps.checkpoint.every-steps=10");
        assertThat(stepDirs(checkpoints)).containsExactly("step-000000000010", "step-000000000020");
        assertThat(Files.exists(checkpoints.resolve("step-000000000020").resolve("part-1-of-2.json"))).isTrue();

        Path resumed = train("checkpoint-resumed-on-3", 3, 40, "--ps.checkpoint.dir=" + checkpoints,
                "--ps.checkpoint.every-steps=10", "--ps.checkpoint.keep=2");
        assertThat(stepDirs(checkpoints)).containsExactly("step-000000000030", "step-000000000040");
        assertThat(Files.exists(checkpoints.resolve("step-000000000040").resolve("part-2-of-3.json"))).isTrue();

        Path onOne = train("checkpoint-restored-on-1", 1, 40, "--ps.checkpoint.dir=" + checkpoints);

        for (ParamSpec spec : ModelType.SOFTMAX.create(784, 10).params()) {
            INDArray reference = read(uninterrupted, 0, spec.name());
            assertThat(maxAbsDiff(read(firstHalf, 0, spec.name()), reference))
                    .as("%s after 20 steps differs from after 40 (the test can fail)", spec.name()).isGreaterThan(1e-4);
            for (int w = 0; w < WORKERS; w++) {
                assertThat(maxAbsDiff(read(resumed, w, spec.name()), reference))
                        .as("worker %d %s: 20 steps, restore onto 3 servers, 20 more vs 40 uninterrupted", w,
                                spec.name()).isLessThan(TOLERANCE);
                assertThat(maxAbsDiff(read(onOne, w, spec.name()), read(resumed, 0, spec.name())))
                        .as("worker %d %s restored onto 1 server", w, spec.name()).isEqualTo(0.0);
            }
        }
    }

    private static Path train(String name, int servers, int steps, String... serverArgs) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("params");
            deleteTree(out);
            cluster.startScheduler(servers, WORKERS);
            List<NodeProcess> serverNodes = new ArrayList<>();
            for (int s = 0; s < servers; s++) {
                List<String> args = new ArrayList<>(List.of("--ps.optimizer.type=ADAM",
                        "--ps.optimizer.learning-rate=0.01", "--ps.consistency.mode=SYNC"));
                args.addAll(List.of(serverArgs));
                serverNodes.add(cluster.startServer(s, servers, WORKERS, args.toArray(String[]::new)));
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, servers, WORKERS, "--ps.worker.model=SOFTMAX",
                        "--ps.worker.data=SYNTHETIC", "--ps.worker.train-limit=512", "--ps.worker.test-limit=128",
                        "--ps.worker.batch-size=16", "--ps.worker.epochs=4", "--ps.worker.max-steps=" + steps,
                        "--ps.worker.seed=7", "--ps.worker.log-interval=10", "--ps.worker.output-dir=" + out);
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
            }
            for (NodeProcess server : serverNodes) {
                server.stop(); // SIGTERM: pending checkpoint writes finish first
                assertThat(server.logText()).as(server.name()).doesNotContain("could not be written");
            }
            return out;
        }
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
