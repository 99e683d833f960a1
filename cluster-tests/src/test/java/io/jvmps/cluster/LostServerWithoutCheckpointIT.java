package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server lost without checkpoints ends the job once and clearly, instead of training on with fresh values
 * next to trained ones. Two servers and two workers in SYNC mode without {@code ps.checkpoint.dir}; server 1 is
 * killed with SIGKILL mid-job and started again, as an operator or a restart policy would:
 * <ul>
 * <li>the replacement took its rank in a started job and has no checkpoint, so it refuses to create its slices
 *     ({@code STATE_LOST}) and holds none: no fresh value is ever served;</li>
 * <li>the workers exit 1 and the scheduler's job is FAILED with the reason, in its REST status, its health and
 *     its metrics;</li>
 * <li>a worker started afterwards (a restart policy's) learns it at registration and exits 0 without training,
 *     so no restart policy loops.</li>
 * </ul>
 * Before, the restarted worker initialised the empty server's slices, joined the running job and waited for
 * versions those slices would never reach, restarting for as long as anyone watched, with the job RUNNING.
 */
class LostServerWithoutCheckpointIT {
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern SLICES = Pattern.compile("\"slices\":(\\d+)");

    @Test
    void theJobFailsOnceWithTheReasonAndNobodyTrainsOnFreshValues() throws Exception {
        try (LocalCluster cluster = new LocalCluster("lost-server-without-checkpoint")) {
            String[] serverArgs = {"--ps.server.register-retry=500ms"};
            List<NodeProcess> servers = cluster.startJobWithFastFailureDetection(2, 2, "SYNC", serverArgs);
            String[] workerArgs = {"--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                    "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.batch-size=16",
                    "--ps.worker.training.epochs=4", "--ps.worker.training.seed=7", "--ps.worker.training.log-interval=10",
                    "--ps.worker.training.step-delay=100ms", "--ps.node.heartbeat-interval=300ms",
                    "--ps.worker.servers.recovery-timeout=60s"};
            NodeProcess[] workers = {cluster.startWorker(0, 2, 2, workerArgs), cluster.startWorker(1, 2, 2, workerArgs)};
            workers[0].awaitLog(Pattern.compile("epoch: 1 step: 20,"), Duration.ofMinutes(3));
            NodeProcess victim = servers.get(1);
            String rank = victim.awaitLog(Pattern.compile("Server rank (\\d) registered"), Duration.ofSeconds(1))
                    .group(1);
            victim.process().destroyForcibly().waitFor();
            NodeProcess replacement = cluster.startServerNamed("server-1-replacement", 2, 2,
                    LocalCluster.fastFailureServerArgs("SYNC", serverArgs));

            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.name() + "\n" + worker.tail()).isEqualTo(1);
            }
            assertThat(workers[0].logText() + workers[1].logText()).contains("[STATE_LOST]");
            String job = NodeProcess.poll("the scheduler's job to be FAILED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FAILED\"")));
            System.out.println("job after the loss: " + job);
            assertThat(job).containsPattern("\"failure\":\"[^\"]*(lost|no checkpoint)[^\"]*reported by worker rank");

            int port = Integer.parseInt(replacement.awaitLog(HTTP_PORT, Duration.ofSeconds(30)).group(1));
            String status = NodeProcess.poll("the replacement's status", Duration.ofSeconds(10),
                    () -> LocalCluster.get(port, "/api/v1/status"));
            Matcher slices = SLICES.matcher(status);
            assertThat(slices.find()).as(status).isTrue();
            assertThat(slices.group(1)).as("the replacement created no slice at fresh values").isEqualTo("0");
            assertThat(replacement.logText()).as("it took the lost rank").contains("Server rank " + rank + " registered");

            NodeProcess late = cluster.startWorkerNamed("worker-restarted", 2, 2, workerArgs);
            assertThat(late.awaitExit(Duration.ofMinutes(2))).as("exit 0: a restart policy stops\n" + late.tail())
                    .isZero();
            assertThat(late.logText()).contains("Not training: [STATE_LOST] the job has FAILED")
                    .doesNotContain("Training in SYNC mode");

            String health = NodeProcess.poll("the scheduler's health", Duration.ofSeconds(10),
                    () -> schedulerHealth(cluster));
            assertThat(health).containsPattern("\"job\":\\{\"details\":\\{\"failure\":\"[^\"]+\",\"state\":\"FAILED\"},"
                    + "\"status\":\"DOWN\"}").contains("\"readinessState\":{\"status\":\"UP\"}");
            String metrics = NodeProcess.poll("the scheduler's metrics", Duration.ofSeconds(10),
                    () -> cluster.schedulerGet("/actuator/prometheus"));
            assertThat(metrics).containsPattern("ps_scheduler_job_state\\{[^}]*state=\"failed\"[^}]*} 1\\.0");
            assertThat(cluster.schedulerGet("/api/v1/job").orElseThrow()).as("still FAILED, the first reason")
                    .isEqualTo(job);
        }
    }

    /** @return the scheduler's health body, which it answers with 503 while the job is FAILED */
    private static java.util.Optional<String> schedulerHealth(LocalCluster cluster) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                            + cluster.schedulerPort() + "/actuator/health")).timeout(Duration.ofSeconds(3)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return java.util.Optional.of(r.body());
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return java.util.Optional.empty();
        }
    }
}
