package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

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
 * until every service is healthy through Actuator, crashes server-0 (SIGKILL of its JVM) after a
 * checkpoint, checks that the engine restarted it, that it restored its part of the checkpoint from the
 * shared volume and both workers resumed there, that the workers' loss falls and that the scheduler reports
 * the job FINISHED with a test accuracy, and scrapes {@code /actuator/prometheus} on every service.
 * (That a SYNC recovery ends on an unbroken run's parameters is {@code CheckpointFailoverIT}'s check.)
 *
 * <p>Needs a Docker engine ({@code DOCKER_HOST}); {@code .ci/run} starts one with
 * {@code ../shared/tools/docker-local.sh}-style set-up ({@code scripts/docker-engine.sh}) and sets
 * {@code PS_REQUIRE_DOCKER=1}, which turns a missing engine into a failure instead of a skip.
 */
class ComposeEndToEndIT {
    private static final Pattern LOSS = Pattern.compile("epoch: (\\d+) step: (\\d+), loss is (\\d+\\.\\d+)");
    private static final Pattern CHECKPOINT = Pattern.compile("(?m)^ps_server_checkpoint_step\\{[^}]*} [1-9]");
    private static final List<String> SERVICES = List.of("scheduler", "server-0", "server-1", "worker-0", "worker-1");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @Test
    void composeUpTrainsLeNetThroughAServerCrashAndEveryServiceIsHealthyAndScraped() throws Exception {
        DockerCompose.assumeEngine();

        Path repo = TestPaths.repo();
        Path data = TestPaths.mnist();

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
        env.put("PS_WORKER_TRAINLIMIT", "4000");
        env.put("PS_WORKER_TESTLIMIT", "1000");
        env.put("PS_WORKER_EPOCHS", "1");
        env.put("PS_WORKER_BATCHSIZE", "32");
        env.put("PS_WORKER_EXITONFINISH", "false");
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
                String job = NodeProcess.poll("the scheduler's job to finish", Duration.ofMinutes(5), () ->
                        get(ports.get("scheduler"), "/api/v1/job").filter(body -> body.contains("\"state\":\"FINISHED\"")));
                assertThat(job).contains("\"total\":1000");
                Matcher accuracy = Pattern.compile("\"correct\":(\\d+)").matcher(job);
                assertThat(accuracy.find()).as(job).isTrue();
                assertThat(Integer.parseInt(accuracy.group(1))).as("correct of 1000 in " + job).isGreaterThan(600);
                assertThat(compose.restarts("server-0")).as("the engine restarted the crashed server").isEqualTo(1);
                assertThat(compose.compose(Duration.ofSeconds(30), "exec", "-T", "scheduler", "cat",
                        "/state/scheduler-state.json")).as("the scheduler keeps the job's state on its volume")
                        .contains("\"state\":\"FINISHED\"").contains("\"nodeId\":\"worker-1-");
                assertThat(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", "server-0"))
                        .as("it restored its part of the checkpoint from the shared volume")
                        .contains("Will restore the checkpoint at step");
                for (String worker : List.of("worker-0", "worker-1")) {
                    Matcher resumed = Pattern.compile("Recovery 1 done: the servers are back at checkpoint step ([1-9]\\d*);")
                            .matcher(compose.compose(Duration.ofMinutes(1), "logs", "--no-color", worker));
                    assertThat(resumed.find()).as(worker + " recovered from the checkpoint").isTrue();
                    System.out.printf("compose: %s resumed at checkpoint step %s; the job ended with %s/1000 correct%n",
                            worker, resumed.group(1), accuracy.group(1));
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
                assertThat(manifest).contains("\"mode\" : \"SYNC\"").contains("\"testExamples\" : 1000");
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
