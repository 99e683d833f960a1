package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker killed with SIGKILL and started again at once: the new process waits until the scheduler
 * marked the old one DEAD and takes its rank. In SYNC (LeNet-style dense job) it joins the running job at a
 * step the survivor has not applied yet (every server agrees on it) and both workers train to the last step
 * together; in ASYNC (wide-and-deep job) it continues its predecessor's schedule at the step after its last
 * push; in GEO (dense job) at the round after its predecessor's last delta, and the survivor's final pull
 * waits for the new worker's last delta. Either way the job is FINISHED with both results.
 */
class WorkerRejoinIT {
    private static final Pattern ACCURACY = Pattern.compile("Test accuracy on this worker's shard .*: ([0-9.]+) ");
    private static final Pattern RANK = Pattern.compile("Worker registered as \\S+ with rank (\\d)");
    private static final Pattern JOINED = Pattern.compile("Joined a running job at step (\\d+) as worker rank (\\d)");
    private static final Pattern JOINED_ROUND =
            Pattern.compile("Joined a running job at round (\\d+) as worker rank (\\d)");
    private static final int STEPS = 120;

    @Test
    void aRestartedWorkerTakesItsRankBackAndJoinsTheRunningJob() throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-rejoin")) {
            cluster.startJobWithFastFailureDetection(2, 2, "SYNC");
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = startWorker(cluster, w);
            }
            workers[1].awaitLog(Pattern.compile("epoch: 1 step: 20,"), Duration.ofMinutes(3));
            String rank = workers[1].awaitLog(RANK, Duration.ofSeconds(1)).group(1);
            workers[1].process().destroyForcibly().waitFor();
            Instant killed = Instant.now();
            // restarted at once, as a restart policy would: it waits for a free rank until the old one is DEAD
            NodeProcess replacement = startWorker(cluster, 2);
            Matcher joined = replacement.awaitLog(JOINED, Duration.ofMinutes(2));
            long step = Long.parseLong(joined.group(1));
            assertThat(joined.group(2)).as("the replacement takes the killed worker's rank").isEqualTo(rank);
            assertThat(step).as("joined mid-job").isBetween(21L, (long) STEPS - 1);
            System.out.printf("worker rank %s killed at %s; its replacement joined at step %d, %d s later%n", rank,
                    killed, step, Duration.between(killed, Instant.now()).toSeconds());

            for (NodeProcess w : new NodeProcess[] {workers[0], replacement}) {
                assertThat(w.awaitExit(Duration.ofMinutes(4))).as(w.name() + "\n" + w.tail()).isZero();
                String log = w.logText();
                assertThat(log).contains("Training finished: " + STEPS + " steps");
                Matcher accuracy = ACCURACY.matcher(log);
                assertThat(accuracy.find()).as(w.tail()).isTrue();
                assertThat(Double.parseDouble(accuracy.group(1))).as(w.name() + " test accuracy").isGreaterThan(0.3);
            }
            for (int s = 0; s < 2; s++) {
                assertThat(cluster.logDir().resolve("server-" + s + ".log")).content()
                        .as("server %d expects the replacement from the same step", s)
                        .containsPattern("Worker rank " + rank + " \\(node [^)]+\\) joined at step " + step + "\\b");
            }
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":2");
        }
    }

    @Test
    void aRestartedCtrWorkerContinuesItsRankInAnAsyncWideAndDeepJob() throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-rejoin-ctr-async")) {
            cluster.startScheduler(1, 2, "--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms");
            cluster.startServer(0, 1, 2, "--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.2",
                    "--ps.consistency.mode=ASYNC", "--ps.node.heartbeat-interval=300ms");
            NodeProcess[] workers = {startCtrWorker(cluster, 0), startCtrWorker(cluster, 1)};
            workers[1].awaitLog(Pattern.compile("epoch: 1 step: 40,"), Duration.ofMinutes(3));
            String rank = workers[1].awaitLog(RANK, Duration.ofSeconds(1)).group(1);
            workers[1].process().destroyForcibly().waitFor();
            NodeProcess replacement = startCtrWorker(cluster, 2);
            Matcher joined = replacement.awaitLog(JOINED, Duration.ofMinutes(2));
            assertThat(joined.group(2)).isEqualTo(rank);
            long step = Long.parseLong(joined.group(1));
            // killed right after logging 40 finished steps (0..39): the next step of the rank is 40 or later
            assertThat(step).as("continues after its predecessor's last push").isGreaterThanOrEqualTo(40L);

            for (NodeProcess w : new NodeProcess[] {workers[0], replacement}) {
                assertThat(w.awaitExit(Duration.ofMinutes(4))).as(w.name() + "\n" + w.tail()).isZero();
                assertThat(w.logText()).contains("Training finished: 188 steps").contains("CTR test AUC");
            }
            assertThat(cluster.logDir().resolve("server-0.log")).content()
                    .containsPattern("Worker rank " + rank + " \\(node [^)]+\\) joined at step " + step + "\\b");
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":2");
        }
    }

    @Test
    void aRestartedGeoWorkerJoinsAtTheRoundAfterItsPredecessorsLastDeltaAndBothEndOnTheSameParameters()
            throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-rejoin-geo")) {
            cluster.startJobWithFastFailureDetection(1, 2, "GEO", "--ps.consistency.geo-interval=5");
            Path out = cluster.logDir().resolve("params");
            NodeProcess[] workers = {startWorker(cluster, 0, 1, "--ps.worker.output.parameters-dir=" + out),
                    startWorker(cluster, 1, 1, "--ps.worker.output.parameters-dir=" + out)};
            workers[1].awaitLog(Pattern.compile("epoch: 1 step: 20,"), Duration.ofMinutes(3));
            String rank = workers[1].awaitLog(RANK, Duration.ofSeconds(1)).group(1);
            workers[1].process().destroyForcibly().waitFor();
            NodeProcess replacement = startWorker(cluster, 2, 1, "--ps.worker.output.parameters-dir=" + out);
            Matcher joined = replacement.awaitLog(JOINED_ROUND, Duration.ofMinutes(2));
            assertThat(joined.group(2)).isEqualTo(rank);
            long round = Long.parseLong(joined.group(1));
            // killed after logging 20 finished steps: its last delta was round 3 (steps 15..19) or later
            assertThat(round).as("the round after its predecessor's last delta").isBetween(4L, (long) STEPS / 5 - 1);

            for (NodeProcess w : new NodeProcess[] {workers[0], replacement}) {
                assertThat(w.awaitExit(Duration.ofMinutes(4))).as(w.name() + "\n" + w.tail()).isZero();
                assertThat(w.logText()).contains("Training finished: " + STEPS + " steps");
            }
            assertThat(cluster.logDir().resolve("server-0.log")).content()
                    .containsPattern("Worker rank " + rank + " \\(node [^)]+\\) joined at round " + round + "\\b");
            // the survivor's final pull waited for the new worker's last delta: both hold the same global copy
            for (String name : ReferenceTraining.initial(7).keySet()) {
                INDArray a = Nd4j.createFromNpyFile(out.resolve("worker-0").resolve(name + ".npy").toFile());
                INDArray b = Nd4j.createFromNpyFile(out.resolve("worker-1").resolve(name + ".npy").toFile());
                assertThat(Transforms.abs(a.sub(b)).maxNumber().doubleValue()).as(name).isLessThan(1e-6);
            }
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":2");
        }
    }

    private static NodeProcess startCtrWorker(LocalCluster cluster, int index) throws java.io.IOException {
        return cluster.startWorker(index, 1, 2, "--ps.worker.job=CTR", "--ps.worker.ctr.fields=4",
                "--ps.worker.ctr.vocabulary=1000", "--ps.worker.ctr.crosses=1", "--ps.worker.ctr.train-size=12000",
                "--ps.worker.ctr.test-size=2000", "--ps.worker.ctr.dim=4", "--ps.worker.training.batch-size=32",
                "--ps.worker.training.epochs=1", "--ps.worker.training.log-interval=20", "--ps.worker.training.step-delay=100ms",
                "--ps.node.heartbeat-interval=300ms");
    }

    private static NodeProcess startWorker(LocalCluster cluster, int index) throws java.io.IOException {
        return startWorker(cluster, index, 2);
    }

    private static NodeProcess startWorker(LocalCluster cluster, int index, int servers, String... extra)
            throws java.io.IOException {
        List<String> args = new ArrayList<>(List.of("--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.batch-size=16",
                "--ps.worker.training.epochs=10", "--ps.worker.training.max-steps=" + STEPS, "--ps.worker.training.seed=7",
                "--ps.worker.training.log-interval=10", "--ps.worker.training.step-delay=100ms", "--ps.node.heartbeat-interval=300ms"));
        args.addAll(List.of(extra));
        return cluster.startWorker(index, servers, 2, args.toArray(String[]::new));
    }
}
