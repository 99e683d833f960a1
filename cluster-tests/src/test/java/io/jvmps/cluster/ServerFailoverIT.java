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
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server killed with SIGKILL mid-training and started again: the replacement takes the dead rank
 * from the scheduler, restores the newest checkpoint, the workers reconnect, roll the surviving server
 * back to the same checkpoint, resume there, and the job ends on exactly the parameters of a run that
 * never failed (SOFTMAX, synthetic data, ADAM, SYNC, 2 servers, 2 workers).
 */
class ServerFailoverIT {
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final int STEPS = 60;
    private static final Pattern TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3})");
    private static final Pattern RESUMED = Pattern.compile("Recovery 1 done: resuming at checkpoint step (\\d+)");

    @Test
    void aKilledServerIsReplacedAndTheJobEndsWhereAnUnbrokenRunEnds() throws Exception {
        Path uninterrupted = train("failover-reference", false);
        Path recovered = train("failover-kill-server-1", true);
        for (ParamSpec spec : ModelType.SOFTMAX.create(784, 10).params()) {
            INDArray reference = read(uninterrupted, 0, spec.name());
            for (int w = 0; w < WORKERS; w++) {
                assertThat(maxAbsDiff(read(recovered, w, spec.name()), reference))
                        .as("worker %d %s after a server kill and recovery vs a run without failures", w, spec.name())
                        .isLessThan(1e-5);
            }
        }
    }

    private static Path train(String name, boolean killOne) throws Exception {
        Path checkpoints = Path.of("target", "cluster-logs", name + "-files").toAbsolutePath();
        deleteTree(checkpoints);
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path out = cluster.logDir().resolve("params");
            deleteTree(out);
            cluster.startScheduler(SERVERS, WORKERS, "--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = {"--ps.optimizer.type=ADAM", "--ps.optimizer.learning-rate=0.01",
                    "--ps.consistency.mode=SYNC", "--ps.checkpoint.dir=" + checkpoints, "--ps.checkpoint.every-steps=10",
                    "--ps.node.heartbeat-interval=300ms", "--ps.server.register-retry=500ms"};
            List<NodeProcess> servers = new ArrayList<>();
            for (int s = 0; s < SERVERS; s++) {
                servers.add(cluster.startServer(s, SERVERS, WORKERS, serverArgs));
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, "--ps.worker.model=SOFTMAX",
                        "--ps.worker.data=SYNTHETIC", "--ps.worker.train-limit=1024", "--ps.worker.test-limit=128",
                        "--ps.worker.batch-size=16", "--ps.worker.epochs=4", "--ps.worker.max-steps=" + STEPS,
                        "--ps.worker.seed=7", "--ps.worker.log-interval=10", "--ps.worker.step-delay=100ms",
                        "--ps.worker.output-dir=" + out);
            }
            if (killOne) {
                NodeProcess victim = servers.get(1);
                victim.awaitLog(Pattern.compile("Checkpoint step 20: wrote part"), Duration.ofMinutes(3));
                victim.process().destroyForcibly().waitFor();
                LocalTime killedAt = LocalTime.now();
                NodeProcess replacement = cluster.startServerNamed("server-1-replacement", SERVERS, WORKERS, serverArgs);
                for (NodeProcess worker : workers) {
                    Matcher resumed = worker.awaitLog(RESUMED, Duration.ofMinutes(3));
                    long step = Long.parseLong(resumed.group(1));
                    assertThat(step).as(worker.name() + " resumes at a checkpoint").isIn(20L, 30L, 40L);
                    System.out.printf("%s: server 1 killed at %s, resumed at checkpoint step %d at %s%n", worker.name(),
                            killedAt, step, timeOf(worker, RESUMED));
                }
                assertThat(replacement.logText()).as(replacement.name()).contains("Server rank 1 registered",
                        "Restored");
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
            }
            return out;
        }
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
