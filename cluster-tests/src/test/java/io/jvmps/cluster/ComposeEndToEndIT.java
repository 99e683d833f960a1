package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's path through Docker: builds the images from the repository's Dockerfile, runs
 * {@code docker-compose.yml} (scheduler, 2 servers, 2 workers, LeNet-5 on a slice of MNIST), waits
 * until every service is healthy through Actuator, and loses a server twice in one job, the two ways a
 * server comes back under compose: server-0's JVM is SIGKILLed after a checkpoint and the engine restarts
 * its container (restart policy); once the workers have recovered, server-1's container is killed
 * ({@code docker kill}, which the policy leaves stopped) and, once the scheduler shows it DEAD, started
 * again by hand as an operator would. Each time the server restores its part of the newest checkpoint from
 * the shared volume and both workers roll back to it. The scheduler must report the job FINISHED with a test
 * accuracy within 0.5 points of an unbroken run of the same job on the same jars (a local cluster, run
 * first), the workers' loss must fall, and every service's {@code /actuator/prometheus} is scraped.
 *
 * <p>Needs a Docker engine ({@code DOCKER_HOST}); {@code .ci/run} starts one with
 * {@code scripts/docker-local.sh} and sets {@code PS_REQUIRE_DOCKER=1}, which turns a missing engine into a
 * failure instead of a skip.
 */
class ComposeEndToEndIT {
    private static final Pattern LOSS = Pattern.compile("epoch: (\\d+) step: (\\d+), loss is (\\d+\\.\\d+)");
    private static final Pattern CHECKPOINT = Pattern.compile("(?m)^ps_server_checkpoint_step\\{[^}]*} [1-9]");
    private static final List<String> SERVICES = List.of("scheduler", "server-0", "server-1", "worker-0", "worker-1");
    private static final Pattern JOB_FINISHED = Pattern.compile("Job finished: test accuracy [0-9.]+% \\((\\d+)/(\\d+)\\)");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The job both runs train: LeNet-5, 2,500 training and 1,000 test images, 2 epochs, server-side Adam. */
    private static final int TRAIN_LIMIT = 2500;
    private static final int TEST_LIMIT = 1000;
    private static final int EPOCHS = 2;
    private static final int BATCH = 32;
    private static final double LEARNING_RATE = 0.001;
    /** 0.5 points of 1,000 test images. */
    private static final int ALLOWED_CORRECT_DIFFERENCE = 5;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @Test
    void composeUpTrainsLeNetThroughTwoLostServersAndEveryServiceIsHealthyAndScraped() throws Exception {
        DockerCompose.assumeEngine();

        Path repo = TestPaths.repo();
        Path data = TestPaths.mnist();
        int unbroken = unbrokenRunCorrect(data);
        System.out.println("compose: the unbroken run of the same job on local processes: " + unbroken + "/" + TEST_LIMIT);

        Map<String, Integer> ports = new LinkedHashMap<>();
        Map<String, String> env = new LinkedHashMap<>();
        for (String service : SERVICES) {
            ports.put(service, LocalCluster.freePort());
        }
        env.put("PS_SCHEDULER_PUBLISHED_PORT", ports.get("scheduler").toString());
        env.put("PS_SERVER0_PUBLISHED_PORT", ports.get("server-0").toString());
        env.put("PS_SERVER1_PUBLISHED_PORT", ports.get("server-1").toString());
        env.put("PS_WORKER0_PUBLISHED_PORT", ports.get("worker-0").toString());
        env.put("PS_WORKER1_PUBLISHED_PORT", ports.get("worker-1").toString());
        env.put("PS_IMAGE_TAG", "e2e");
        env.put("PS_DATA_DIR", data.toString());
        // A slice of MNIST keeps the test near a minute of training; workers stay up after training
        // so that their metrics can be scraped once the job is done.
        env.put("PS_WORKER_MODEL", "LENET5");
        env.put("PS_WORKER_DATASET_TRAINLIMIT", Integer.toString(TRAIN_LIMIT));
        env.put("PS_WORKER_DATASET_TESTLIMIT", Integer.toString(TEST_LIMIT));
        env.put("PS_WORKER_TRAINING_EPOCHS", Integer.toString(EPOCHS));
        env.put("PS_WORKER_TRAINING_BATCHSIZE", Integer.toString(BATCH));
        env.put("PS_CONSISTENCY_MODE", "SYNC");
        env.put("PS_OPTIMIZER_TYPE", "ADAM");
        env.put("PS_OPTIMIZER_LEARNINGRATE", Double.toString(LEARNING_RATE));
        env.put("PS_WORKER_LIFECYCLE_EXITONFINISH", "false");
        // the compose file's checkpoints (one shared volume), taken often enough to crash a server mid-job
        env.put("PS_CHECKPOINT_EVERYSTEPS", "10");
        env.put("PS_SCHEDULER_HEARTBEATTIMEOUT", "6s");

        String project = "jvmpse2e" + UUID.randomUUID().toString().substring(0, 8);
        try (DockerCompose compose = new DockerCompose(repo, project, env)) {
            compose.compose(Duration.ofMinutes(5), "build");
            compose.compose(Duration.ofMinutes(6), "up", "-d");
            try {
                for (String service : SERVICES) {
                    awaitOk(service, ports.get(service), "/actuator/health/readiness", Duration.ofMinutes(3));
                }
                NodeProcess.poll("server-0's first checkpoint", Duration.ofMinutes(3), () ->
                        get(ports.get("server-0"), "/actuator/prometheus").filter(m -> CHECKPOINT.matcher(m).find()));
                long killed = compose.crash("server-0");
                System.out.println("SIGKILLed server-0's JVM (host pid " + killed + ") after its first checkpoint");
                // both workers finish their first recovery before the second loss, or one recovery would cover both
                for (String worker : List.of("worker-0", "worker-1")) {
                    NodeProcess.poll(worker + " to recover from server-0's loss", Duration.ofMinutes(4), () ->
                            Optional.of(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", worker))
                                    .filter(log -> log.contains("Recovery 1 done")));
                }
                compose.compose(Duration.ofMinutes(1), "kill", "server-1");
                System.out.println("killed server-1's container (docker kill: the restart policy leaves it stopped)");
                NodeProcess.poll("the scheduler to show server-1 DEAD", Duration.ofMinutes(1), () ->
                        get(ports.get("scheduler"), "/api/v1/cluster").filter(ComposeEndToEndIT::serverOneDead));
                compose.compose(Duration.ofMinutes(2), "start", "server-1");
                System.out.println("started server-1 again by hand");
                String job = NodeProcess.poll("the scheduler's job to finish", Duration.ofMinutes(6), () ->
                        get(ports.get("scheduler"), "/api/v1/job").filter(body -> body.contains("\"state\":\"FINISHED\"")));
                assertThat(job).contains("\"total\":" + TEST_LIMIT);
                Matcher accuracy = Pattern.compile("\"correct\":(\\d+)").matcher(job);
                assertThat(accuracy.find()).as(job).isTrue();
                int correct = Integer.parseInt(accuracy.group(1));
                System.out.printf("compose: two servers lost and back, %d/%d correct; unbroken %d/%d%n", correct,
                        TEST_LIMIT, unbroken, TEST_LIMIT);
                assertThat(correct).as("correct of %d after two lost servers, against %d in the unbroken run",
                        TEST_LIMIT, unbroken).isCloseTo(unbroken, org.assertj.core.api.Assertions.within(
                        ALLOWED_CORRECT_DIFFERENCE));
                assertThat(compose.restarts("server-0")).as("the engine restarted the crashed server").isEqualTo(1);
                assertThat(compose.restarts("server-1")).as("server-1 was started by hand, not by the engine")
                        .isZero();
                assertThat(compose.compose(Duration.ofSeconds(30), "exec", "-T", "scheduler", "cat",
                        "/state/scheduler-state.json")).as("the scheduler keeps the job's state on its volume")
                        .contains("\"state\":\"FINISHED\"").contains("\"nodeId\":\"worker-1-");
                for (String server : List.of("server-0", "server-1")) {
                    assertThat(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", server))
                            .as(server + " restored its part of the checkpoint from the shared volume")
                            .contains("Will restore the checkpoint at step");
                }
                for (String worker : List.of("worker-0", "worker-1")) {
                    String log = compose.compose(Duration.ofMinutes(1), "logs", "--no-color", worker);
                    for (int recovery = 1; recovery <= 2; recovery++) {
                        Matcher resumed = Pattern.compile("Recovery " + recovery
                                + " done: the servers are back at checkpoint step ([1-9]\\d*);").matcher(log);
                        assertThat(resumed.find()).as(worker + " recovery " + recovery + " from a checkpoint").isTrue();
                        System.out.printf("compose: %s recovery %d resumed at checkpoint step %s%n", worker, recovery,
                                resumed.group(1));
                    }
                }

                // worker rank 0 wrote the trained model into the models volume both workers mount
                String manifest = NodeProcess.poll("the trained model in the models volume", Duration.ofMinutes(1),
                        () -> {
                            try {
                                return java.util.Optional.of(compose.compose(Duration.ofSeconds(30), "exec", "-T",
                                        "worker-0", "cat", "/models/model.json")).filter(m -> m.contains("testExamples"));
                            } catch (AssertionError notYet) {
                                return java.util.Optional.empty();
                            }
                        });
                assertThat(manifest).contains("\"mode\" : \"SYNC\"").contains("\"testExamples\" : " + TEST_LIMIT);
                for (String worker : List.of("worker-0", "worker-1")) {
                    List<Double> losses = losses(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", worker));
                    assertThat(losses).as(worker + " loss lines").hasSizeGreaterThanOrEqualTo(3);
                    assertThat(losses.get(losses.size() - 1)).as(worker + " losses " + losses).isLessThan(losses.get(0) * 0.7);
                }
                StringBuilder scraped = new StringBuilder();
                for (String service : SERVICES) {
                    String metrics = get(ports.get(service), "/actuator/prometheus")
                            .orElseThrow(() -> new AssertionError(service + " /actuator/prometheus did not answer 200"));
                    assertThat(metrics).as(service).contains("application=\"" + service.replaceAll("-\\d$", "") + "\"")
                            .contains("jvm_memory_used_bytes");
                    scraped.append(metrics);
                }
                assertMonitoringProfileMatches(repo, scraped.toString());
                assertThat(get(ports.get("scheduler"), "/actuator/prometheus").orElseThrow()).contains("ps_cluster_nodes");
                // The cluster secret was generated on first start and shared through the volume: every node
                // registered with it, and a caller without it is refused.
                assertThat(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", "scheduler"))
                        .contains("No cluster secret configured: generated one");
                HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                + ports.get("scheduler") + "/api/v1/nodes")).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"role\":\"worker\",\"host\":\"x\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(refused.statusCode()).isEqualTo(401);
                assertThat(refused.body()).contains("UNAUTHENTICATED");
                assertThat(get(ports.get("server-0"), "/actuator/prometheus").orElseThrow())
                        .contains("ps_server_updates_applied").containsPattern("ps_server_push_seconds\\{[^}]*quantile=\"0.95\"");
                for (String worker : List.of("worker-0", "worker-1")) {
                    String metrics = get(ports.get(worker), "/actuator/prometheus").orElseThrow();
                    assertThat(metrics).containsPattern("ps_worker_step_seconds_count\\{application=\"worker\"} [1-9]")
                            .containsPattern("ps_worker_accuracy\\{application=\"worker\"} 0\\.[6-9]");
                }
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n--- compose logs ---\n" + compose.logs(), e);
            }
        }
    }

    /**
     * The monitoring profile cannot run here (its images come from Docker Hub), so check its configuration
     * against the running services: Prometheus scrapes exactly the five services, and every jvm-ps metric
     * the Grafana dashboard queries is exported by one of them.
     */
    private static void assertMonitoringProfileMatches(Path repo, String scraped) throws IOException {
        String prometheus = Files.readString(repo.resolve("docker/prometheus/prometheus.yml"));
        assertThat(prometheus).contains("metrics_path: /actuator/prometheus");
        for (String service : SERVICES) {
            assertThat(prometheus).as("prometheus.yml scrapes " + service).contains("\"" + service + ":8080\"");
        }
        String dashboard = Files.readString(repo.resolve("docker/grafana/dashboards/jvm-ps.json"));
        Matcher metric = Pattern.compile("\\b(ps_[a-z_]+?)(_total|_count|_sum)?\\b").matcher(dashboard);
        List<String> queried = new ArrayList<>();
        while (metric.find()) {
            queried.add(metric.group(0));
        }
        assertThat(queried).as("metrics in the Grafana dashboard").hasSizeGreaterThanOrEqualTo(8);
        for (String name : queried) {
            assertThat(scraped).as("Grafana queries " + name).containsPattern("(?m)^" + name + "[{ ]");
        }
    }

    /**
     * Runs the compose job's training on local processes of the same jars, with nothing lost.
     *
     * @return how many of the test images the finished job classified correctly
     */
    private static int unbrokenRunCorrect(Path data) throws Exception {
        try (LocalCluster cluster = new LocalCluster("compose-unbroken")) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 2, "--ps.consistency.mode=SYNC", "--ps.optimizer.type=ADAM",
                        "--ps.optimizer.learning-rate=" + LEARNING_RATE);
            }
            List<NodeProcess> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                workers.add(cluster.startWorker(w, 2, 2, "--ps.worker.model=LENET5", "--ps.worker.dataset.path=" + data,
                        "--ps.worker.dataset.train-limit=" + TRAIN_LIMIT, "--ps.worker.dataset.test-limit=" + TEST_LIMIT,
                        "--ps.worker.training.epochs=" + EPOCHS, "--ps.worker.training.batch-size=" + BATCH));
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(6))).as(worker.name() + "\n" + worker.tail()).isZero();
            }
            Matcher done = scheduler.awaitLog(JOB_FINISHED, Duration.ofSeconds(30));
            assertThat(Integer.parseInt(done.group(2))).isEqualTo(TEST_LIMIT);
            return Integer.parseInt(done.group(1));
        }
    }

    /**
     * @return whether the scheduler's cluster view shows the server that the container {@code server-1} runs
     * DEAD. By its host (the container's name, which it registers), not by rank: ranks go in registration
     * order, and either container may register first.
     */
    private static boolean serverOneDead(String clusterView) {
        for (JsonNode node : JSON.readTree(clusterView).path("nodes")) {
            if (node.path("role").asString().equals("SERVER") && node.path("host").asString().equals("server-1")
                    && node.path("state").asString().equals("DEAD")) {
                return true;
            }
        }
        return false;
    }

    private void awaitOk(String service, int port, String path, Duration timeout) {
        NodeProcess.poll(service + " " + path + " on port " + port, timeout, () -> get(port, path));
    }

    private Optional<String> get(int port, String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    private static List<Double> losses(String log) {
        List<Double> losses = new ArrayList<>();
        Matcher m = LOSS.matcher(log);
        while (m.find()) {
            losses.add(Double.parseDouble(m.group(3)));
        }
        return losses;
    }

}
