package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code deploy/swarm/jvm-ps.yml} on a real single-node Docker Swarm: {@code docker stack deploy} of the
 * locally built images trains LeNet-5 on a slice of MNIST with 2 servers and 2 workers on an overlay
 * network (no depends_on: the nodes find the scheduler by retrying). Once both servers have written a
 * checkpoint, one server's container is killed: swarm starts a new task in its slot, which takes the rank
 * the scheduler marked DEAD and restores that rank's part from the shared checkpoint volume, the workers
 * roll back to the checkpoint, and the job still finishes above 80 % on 1,000 test images; finished
 * workers' tasks end Complete. Prints the time to detect the loss and to recover.
 *
 * <p>Needs a Docker engine (see {@link ComposeEndToEndIT}); with {@code PS_REQUIRE_DOCKER=1} a missing
 * engine is a failure, not a skip.
 */
class SwarmStackIT {
    private static final Pattern CHECKPOINT = Pattern.compile("Checkpoint step (\\d+): wrote part (\\d) of 2");
    private static final Pattern MARKED_DEAD = Pattern.compile(
            "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*\\(server rank \\d\\) missed heartbeats for \\d+ ms, marked DEAD");
    private static final Pattern TOOK_OVER = Pattern.compile(
            "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*took over server rank \\d from dead node");
    private static final Pattern RECOVERED = Pattern.compile(
            "(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*Recovery 1 done: the servers are back at checkpoint step (\\d+)");

    @Test
    void aStackTrainsAndAKilledServerTaskIsReplacedFromTheCheckpoint() throws Exception {
        DockerCompose.assumeEngine();

        Path repo = TestPaths.repo();
        Path data = TestPaths.mnist();
        String stack = "jvmpsswarm" + UUID.randomUUID().toString().substring(0, 6);
        try (DockerCompose images = new DockerCompose(repo, stack + "build", Map.of("PS_IMAGE_TAG", "swarm"))) {
            images.compose(Duration.ofMinutes(5), "build", "scheduler", "server-0", "worker-0");
        }

        int schedulerPort = LocalCluster.freePort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PS_IMAGE_TAG", "swarm");
        env.put("PS_DATA_DIR", data.toString());
        env.put("PS_SCHEDULER_PUBLISHED_PORT", String.valueOf(schedulerPort));
        env.put("PS_SCHEDULER_HEARTBEATTIMEOUT", "5s");
        env.put("PS_CHECKPOINT_EVERYSTEPS", "10");
        env.put("PS_WORKER_DATASET_TRAINLIMIT", "6000");
        env.put("PS_WORKER_DATASET_TESTLIMIT", "1000");
        env.put("PS_WORKER_TRAINING_EPOCHS", "1");
        env.put("PS_WORKER_TRAINING_BATCHSIZE", "32");

        try (SwarmStack swarm = new SwarmStack(repo, stack, env)) {
            try {
                swarm.deploy();
                String cluster = NodeProcess.poll("2 servers and 2 workers registered", Duration.ofMinutes(4), () ->
                        LocalCluster.get(schedulerPort, "/api/v1/cluster").map(body -> body.toLowerCase(java.util.Locale.ROOT))
                                .filter(body -> count(body, "\"role\":\"server\"") == 2
                                        && count(body, "\"role\":\"worker\"") == 2));
                // every node announced its task name (resolvable on the overlay network) as its address
                assertThat(cluster).contains("\"host\":\"" + stack + "_server.1.").contains("\"host\":\"" + stack + "_worker.2.");

                int step = NodeProcess.poll("both servers' parts of one checkpoint", Duration.ofMinutes(4), () -> {
                    Matcher m = CHECKPOINT.matcher(swarm.logs("server"));
                    Map<Integer, Integer> parts = new java.util.HashMap<>();
                    while (m.find()) {
                        parts.merge(Integer.parseInt(m.group(1)), 1, Integer::sum);
                    }
                    return parts.entrySet().stream().filter(e -> e.getValue() == 2).map(Map.Entry::getKey)
                            .max(Integer::compare);
                });
                List<String> servers = swarm.containers("server");
                assertThat(servers).hasSize(2);
                SwarmStack.docker(Duration.ofSeconds(30), "kill", servers.get(0));
                Instant killed = Instant.now();
                System.out.printf("swarm: killed server container %s after checkpoint step %d at %s%n",
                        servers.get(0), step, killed);

                String job = NodeProcess.poll("the scheduler's job to finish", Duration.ofMinutes(6), () ->
                        LocalCluster.get(schedulerPort, "/api/v1/job").filter(b -> b.contains("\"state\":\"FINISHED\"")));
                Matcher correct = Pattern.compile("\"correct\":(\\d+)").matcher(job);
                assertThat(correct.find()).as(job).isTrue();
                assertThat(job).contains("\"total\":1000");
                assertThat(Integer.parseInt(correct.group(1))).as("correct of 1000 in " + job).isGreaterThan(800);

                String workers = swarm.logs("worker");
                Matcher recovered = RECOVERED.matcher(workers);
                assertThat(recovered.find()).as("a worker recovered\n" + tail(workers)).isTrue();
                assertThat(Integer.parseInt(recovered.group(2))).isGreaterThanOrEqualTo(step);
                assertThat(swarm.logs("server")).as("the new server task restored the checkpoint").contains("Restored");
                String scheduler = swarm.logs("scheduler");
                Matcher dead = MARKED_DEAD.matcher(scheduler);
                Matcher tookOver = TOOK_OVER.matcher(scheduler);
                assertThat(dead.find()).as("the scheduler marked the killed server DEAD").isTrue();
                assertThat(tookOver.find()).as("the new server task took the dead rank").isTrue();
                NodeProcess.poll("both worker tasks Complete", Duration.ofMinutes(1), () -> {
                    String tasks = swarm.tasks("worker");
                    return count(tasks, " Complete ") == 2 ? java.util.Optional.of(tasks) : java.util.Optional.empty();
                });
                String serverTasks = swarm.tasks("server");
                assertThat(count(serverTasks, " Running ")).as(serverTasks).isEqualTo(2);
                assertThat(serverTasks).contains("Failed");
                System.out.printf("swarm: server killed at %s; marked DEAD after %.1f s, its slot's new task took the "
                                + "rank after %.1f s, a worker finished recovery after %.1f s; job finished %d s after "
                                + "the kill%n%s%n", killed, since(killed, dead.group(1)), since(killed, tookOver.group(1)),
                        since(killed, recovered.group(1)), Duration.between(killed, Instant.now()).toSeconds(),
                        serverTasks);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError(e.getMessage() + "\n--- scheduler ---\n" + tail(swarm.logs("scheduler"))
                        + "\n--- servers ---\n" + tail(swarm.logs("server")) + "\n--- workers ---\n"
                        + tail(swarm.logs("worker")), e);
            }
        }
    }

    /** @return seconds from {@code from} to a log time of day (UTC, the containers' zone) on the same day */
    private static double since(Instant from, String timeOfDay) {
        java.time.LocalTime t = java.time.LocalTime.parse(timeOfDay);
        Instant at = from.atZone(java.time.ZoneOffset.UTC).toLocalDate().atTime(t).toInstant(java.time.ZoneOffset.UTC);
        return Duration.between(from, at).toMillis() / 1000.0;
    }

    private static String tail(String log) {
        List<String> lines = log.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
