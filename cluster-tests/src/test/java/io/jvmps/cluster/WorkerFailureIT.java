package io.jvmps.cluster;

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
 * FINISHED.
 */
class WorkerFailureIT {
    private static final Pattern ACCURACY = Pattern.compile("Test accuracy on this worker's shard .*: ([0-9.]+) ");
    private static final Pattern STEP_AFTER = Pattern.compile("epoch: \\d+ step: \\d+, loss is");

    @ParameterizedTest
    @ValueSource(strings = {"SYNC", "SSP"})
    void theSurvivorsFinishTheJobWithoutTheKilledWorker(String mode) throws Exception {
        try (LocalCluster cluster = new LocalCluster("worker-failure-" + mode.toLowerCase())) {
            cluster.startJobWithFastFailureDetection(2, 2, mode);
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.data=SYNTHETIC",
                        "--ps.worker.train-limit=1024", "--ps.worker.test-limit=256", "--ps.worker.batch-size=16",
                        "--ps.worker.epochs=4", "--ps.worker.max-steps=80", "--ps.worker.seed=7",
                        "--ps.worker.log-interval=1", "--ps.worker.step-delay=100ms",
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

    private static int count(String log) {
        Matcher m = STEP_AFTER.matcher(log);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
