package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker killed with SIGKILL in SYNC and in SSP mode: the scheduler marks it DEAD after the heartbeat
 * timeout, the servers (which follow the cluster view) stop waiting for it (SYNC: for its gradients;
 * SSP: for its clock, which would otherwise hold the survivor at the staleness bound until its pulls time
 * out), the surviving worker finishes every step and reports its accuracy, and the scheduler calls the job
 * FINISHED. With dynamic sharding in ASYNC the survivor also trains what the killed worker left.
 */
class WorkerFailureIT {
    private static final Pattern ACCURACY = Pattern.compile("Test accuracy on this worker's shard .*: ([0-9.]+) ");
    private static final Pattern PARTITION = Pattern.compile("Training data partition (\\d+) of epoch (\\d+) ");
    private static final Pattern REQUEUED = Pattern.compile(
            "Partition \\(epoch (\\d+), partition (\\d+)\\) goes back to the queue: its worker \\S+ is DEAD");
    private static final Pattern STEP_AFTER = Pattern.compile("epoch: \\d+ step: \\d+, loss is");

    @ParameterizedTest
    @ValueSource(strings = {"SYNC", "SSP"})
    void theSurvivorsFinishTheJobWithoutTheKilledWorker(String mode) throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-failure-" + mode.toLowerCase())) {
            cluster.startJobWithFastFailureDetection(2, 2, mode);
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                        "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.batch-size=16",
                        "--ps.worker.training.epochs=4", "--ps.worker.training.max-steps=80", "--ps.worker.training.seed=7",
                        "--ps.worker.training.log-interval=1", "--ps.worker.training.step-delay=100ms",
                        "--ps.node.heartbeat-interval=300ms");
            }
            workers[1].awaitLog(Pattern.compile("epoch: 1 step: 20,"), Duration.ofMinutes(3));
            workers[1].process().destroyForcibly().waitFor();
            Instant killed = Instant.now();
            int stepsBefore = count(workers[0].logText());

            assertThat(workers[0].awaitExit(Duration.ofMinutes(3))).as("survivor\n" + workers[0].tail()).isZero();
            String log = workers[0].logText();
            assertThat(log).contains("Training finished: 80 steps");
            Matcher accuracy = ACCURACY.matcher(log);
            assertThat(accuracy.find()).as(workers[0].tail()).isTrue();
            assertThat(Double.parseDouble(accuracy.group(1))).as("survivor's test accuracy").isGreaterThan(0.3);
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":1");
            assertThat(cluster.logDir().resolve("server-0.log")).content()
                    .containsPattern("live workers \\{0, 1} -> \\{[01]}");
            System.out.printf("worker 1 killed at %s after %d survivor steps; survivor finished in %d s%n", killed,
                    stepsBefore, Duration.between(killed, Instant.now()).toSeconds());
        }
    }

    /**
     * DYNAMIC sharding in ASYNC: the partition the killed worker was training goes back to the queue once
     * the scheduler marks it DEAD, and the survivor trains it and every partition left; the partitions the
     * killed worker had finished are not trained again.
     */
    @Test
    void inDynamicAsyncTheSurvivorTrainsTheKilledWorkersUnfinishedPartition() throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-failure-async-dynamic")) {
            cluster.startJobWithFastFailureDetection(2, 2, "ASYNC");
            java.nio.file.Path schedulerLog = cluster.logDir().resolve("scheduler.log");
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                        "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.batch-size=16",
                        "--ps.worker.training.epochs=2", "--ps.worker.dataset.sharding=DYNAMIC", "--ps.worker.dataset.partitions=8",
                        "--ps.worker.training.seed=7", "--ps.worker.training.log-interval=1", "--ps.worker.training.step-delay=100ms",
                        "--ps.node.heartbeat-interval=300ms");
            }
            // killed 3 steps into its third partition (the step in the log counts within the partition)
            workers[1].awaitLog(Pattern.compile("(?s)(?:Training data partition.*?){3}step: 3, loss"),
                    Duration.ofMinutes(3));
            workers[1].process().destroyForcibly().waitFor();

            assertThat(workers[0].awaitExit(Duration.ofMinutes(3))).as("survivor\n" + workers[0].tail()).isZero();
            Matcher requeued = REQUEUED.matcher(NodeProcess.poll("the requeue", Duration.ofSeconds(5),
                    () -> java.util.Optional.of(read(schedulerLog)).filter(t -> REQUEUED.matcher(t).find())));
            assertThat(requeued.find()).isTrue();
            // the scheduler counts epochs from 0, the workers' logs from 1
            String unfinished = (Integer.parseInt(requeued.group(1)) + 1) + ":" + requeued.group(2);
            java.util.Set<String> byKilled = partitions(workers[1].logText());
            java.util.List<String> bySurvivor = new java.util.ArrayList<>(partitions(workers[0].logText()));
            assertThat(byKilled).as("the killed worker held it").contains(unfinished);
            assertThat(bySurvivor).as("the survivor trained it after").contains(unfinished);
            java.util.Set<String> finishedByKilled = new java.util.HashSet<>(byKilled);
            finishedByKilled.remove(unfinished);
            assertThat(bySurvivor).as("nothing the killed worker finished is trained again")
                    .doesNotContainAnyElementsOf(finishedByKilled);
            java.util.Set<String> all = new java.util.HashSet<>(bySurvivor);
            all.addAll(byKilled);
            assertThat(all).as("every (epoch, partition) of 2 x 8").hasSize(16);
            assertThat(bySurvivor.size() + finishedByKilled.size()).as("each finished once").isEqualTo(16);
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":1");
        }
    }

    private static String read(java.nio.file.Path file) {
        try {
            return java.nio.file.Files.readString(file);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** @return "epoch:partition" of every partition the worker's log says it started */
    private static java.util.Set<String> partitions(String log) {
        java.util.Set<String> started = new java.util.LinkedHashSet<>();
        Matcher m = PARTITION.matcher(log);
        while (m.find()) {
            started.add(m.group(2) + ":" + m.group(1));
        }
        return started;
    }

    private static int count(String log) {
        Matcher m = STEP_AFTER.matcher(log);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
