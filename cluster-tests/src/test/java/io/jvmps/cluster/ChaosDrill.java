package io.jvmps.cluster;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos drill: the real job (MNIST, 2 servers, 2 workers, SYNC, checkpoints every 50 steps) while a random
 * node, the scheduler, a server or a worker, is killed with SIGKILL at a random moment, ten times; one of the ten
 * is a worker that hangs (SIGSTOP) instead. Each lost node is started again as an operator or an orchestrator
 * would (a hung worker is killed once the scheduler has marked it DEAD). The job must finish, every kill must be
 * recovered, and its accuracy must be within 0.3 points of an unbroken run with the same seed. Prints a table:
 * what was lost, when the cluster noticed, when training was whole again.
 *
 * <p>Not part of {@code ./mvnw verify} (about 15 minutes): {@code ./mvnw -pl cluster-tests verify -Pdrill
 * -Dit.test=ChaosDrill}. {@code -Ddrill.seed=N} picks other victims and moments.
 */
@Tag("drill")
class ChaosDrill {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final int KILLS = 10;
    private static final Duration RECOVERY_DEADLINE = Duration.ofMinutes(3);
    private static final Pattern RECOVERED = Pattern.compile("Recovery \\d+ done");
    private static final Pattern SERVER_RANK = Pattern.compile("Server rank (\\d+) registered as");
    private static final Pattern WORKER_RANK = Pattern.compile("Worker registered as \\S+ with rank (\\d+)");

    private final Random random = new Random(Long.getLong("drill.seed", 42));
    private final List<String> table = new ArrayList<>();

    @Test
    void theJobSurvivesTenRandomLossesAndEndsWhereAnUnbrokenRunEnds() throws Exception {
        double unbroken = run("chaos-unbroken", false);
        double chaos = run("chaos-kills", true);
        String verdict = String.format(Locale.ROOT, "chaos drill: accuracy %.2f %% with %d losses, %.2f %% unbroken "
                + "(difference %.2f points, allowed 0.30)", 100 * chaos, table.size(), 100 * unbroken,
                100 * Math.abs(chaos - unbroken));
        List<String> rows = new ArrayList<>(List.of("| loss | noticed after | training whole again after | how |",
                "|---|---|---|---|"));
        rows.addAll(table);
        DrillReport.record(verdict, rows);
        assertThat(table).as("every loss was recovered").hasSize(KILLS);
        assertThat(100 * Math.abs(chaos - unbroken)).as(verdict).isLessThanOrEqualTo(0.3);
    }

    /** @return the job's final test accuracy */
    private double run(String name, boolean chaos) throws Exception {
        try (LocalCluster cluster = new LocalCluster(name)) {
            Path state = cluster.freshDir("scheduler-state");
            Path checkpoints = cluster.freshDir("checkpoints");
            String[] schedulerArgs = {"--ps.scheduler.heartbeat-timeout=3s",
                    "--ps.scheduler.failure-check-interval=200ms", "--ps.scheduler.state-dir=" + state};
            String[] serverArgs = {"--ps.consistency.mode=SYNC", "--ps.optimizer.type=ADAM",
                    "--ps.optimizer.learning-rate=0.002", "--ps.checkpoint.dir=" + checkpoints,
                    "--ps.checkpoint.every-steps=50", "--ps.node.heartbeat-interval=300ms",
                    "--ps.server.register-retry=500ms"};
            String[] workerArgs = {"--ps.worker.model=SOFTMAX", "--ps.worker.dataset.path=" + TestPaths.mnist(),
                    "--ps.worker.training.epochs=3", "--ps.worker.training.batch-size=32", "--ps.worker.training.seed=11",
                    "--ps.worker.training.log-interval=10", "--ps.worker.training.step-delay=" + (chaos ? "150ms" : "0s"),
                    "--ps.node.heartbeat-interval=300ms"};
            Map<String, NodeProcess> nodes = new LinkedHashMap<>();
            nodes.put("scheduler", cluster.startScheduler(SERVERS, WORKERS, schedulerArgs));
            for (int s = 0; s < SERVERS; s++) {
                nodes.put("server-" + s, cluster.startServer(s, SERVERS, WORKERS, serverArgs));
            }
            for (int w = 0; w < WORKERS; w++) {
                nodes.put("worker-" + w, cluster.startWorker(w, SERVERS, WORKERS, workerArgs));
            }
            if (chaos) {
                Chaos drill = new Chaos(cluster, nodes, schedulerArgs, serverArgs, workerArgs);
                NodeProcess.poll("the job's first steps", Duration.ofMinutes(3),
                        () -> drill.maxStep() >= 20 ? Optional.of(true) : Optional.empty());
                drill.keyByRank();
                int hang = random.nextInt(KILLS);
                for (int k = 0; k < KILLS && drill.stillTraining(); k++) {
                    drill.pause(5 + random.nextInt(11));
                    if (!drill.stillTraining()) {
                        break;
                    }
                    table.add(k == hang ? drill.hangWorker(random.nextInt(WORKERS))
                            : drill.kill(List.copyOf(nodes.keySet()).get(random.nextInt(nodes.size()))));
                }
            }
            JsonNode finished = NodeProcess.poll("the job to finish", Duration.ofMinutes(20), () -> cluster
                    .schedulerGet("/api/v1/job").map(ChaosDrill::json)
                    .filter(job -> job.path("state").asString().equals("FINISHED")));
            return finished.path("accuracy").asDouble();
        }
    }

    private static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    /** The losses of one run and how the cluster took each. */
    private final class Chaos {
        private final LocalCluster cluster;
        private final Map<String, NodeProcess> nodes;
        private final String[] schedulerArgs;
        private final String[] serverArgs;
        private final String[] workerArgs;
        private int replacements;

        Chaos(LocalCluster cluster, Map<String, NodeProcess> nodes, String[] schedulerArgs, String[] serverArgs,
              String[] workerArgs) {
            this.cluster = cluster;
            this.nodes = nodes;
            this.schedulerArgs = schedulerArgs;
            this.serverArgs = serverArgs;
            this.workerArgs = workerArgs;
        }

        /** Names each server and worker by the rank it got (ranks follow registration, not launch order). */
        void keyByRank() {
            Map<String, NodeProcess> byRank = new LinkedHashMap<>();
            byRank.put("scheduler", nodes.get("scheduler"));
            for (Map.Entry<String, NodeProcess> node : nodes.entrySet()) {
                if (!node.getKey().equals("scheduler")) {
                    boolean server = node.getKey().startsWith("server");
                    String rank = node.getValue().awaitLog(server ? SERVER_RANK : WORKER_RANK, Duration.ofMinutes(1))
                            .group(1);
                    byRank.put((server ? "server-" : "worker-") + rank, node.getValue());
                }
            }
            nodes.clear();
            nodes.putAll(byRank);
        }

        /** Waits {@code seconds}, watching that the job is still running. */
        void pause(int seconds) {
            NodeProcess.until(Duration.ofSeconds(seconds), () -> !stillTraining());
        }

        /** @return whether the job runs and no worker is near its end (a loss then could not be measured) */
        boolean stillTraining() {
            Optional<JsonNode> job = cluster.schedulerGet("/api/v1/job").map(ChaosDrill::json);
            if (job.isEmpty()) {
                return true; // the scheduler is coming back
            }
            String state = job.get().path("state").asString();
            if (state.equals("FINISHED") || state.equals("FAILED")) {
                return false;
            }
            for (JsonNode report : job.get().path("latest")) {
                if (report.path("step").asLong() > 0.85 * 3 * 938) {
                    return false;
                }
            }
            return true;
        }

        String kill(String slot) throws Exception {
            NodeProcess victim = nodes.get(slot);
            long killedAt = System.nanoTime();
            if (slot.equals("scheduler")) {
                victim.process().destroyForcibly().waitFor();
                long before = maxStep();
                NodeProcess back = cluster.restartScheduler("scheduler-" + (++replacements), SERVERS, WORKERS,
                        schedulerArgs);
                nodes.put(slot, back);
                long answered = System.nanoTime();
                NodeProcess.poll("progress through the restarted scheduler", RECOVERY_DEADLINE,
                        () -> maxStep() > before + 10 ? Optional.of(true) : Optional.empty());
                return row("SIGKILL scheduler", answered - killedAt, System.nanoTime() - killedAt,
                        "restarted from its state file; nodes kept training");
            }
            String nodeId = nodeIdOf(slot);
            int recoveriesBefore = recoveries();
            victim.process().destroyForcibly().waitFor();
            NodeProcess replacement = slot.startsWith("server")
                    ? cluster.startServerNamed(slot + "-r" + (++replacements), SERVERS, WORKERS, serverArgs)
                    : cluster.startWorkerNamed(slot + "-r" + (++replacements), SERVERS, WORKERS, workerArgs);
            nodes.put(slot, replacement);
            long detected = awaitDead(nodeId) - killedAt;
            if (slot.startsWith("server")) {
                NodeProcess.poll("a worker's recovery", RECOVERY_DEADLINE,
                        () -> recoveries() > recoveriesBefore ? Optional.of(true) : Optional.empty());
                return row("SIGKILL " + slot, detected, System.nanoTime() - killedAt,
                        "replacement restored the newest checkpoint");
            }
            awaitProgressFromReplacementOf(nodeId, slot);
            return row("SIGKILL " + slot, detected, System.nanoTime() - killedAt, "replacement took its rank");
        }

        String hangWorker(int rank) throws Exception {
            String slot = "worker-" + rank;
            NodeProcess victim = nodes.get(slot);
            String nodeId = nodeIdOf(slot);
            long stoppedAt = System.nanoTime();
            new ProcessBuilder("kill", "-STOP", Long.toString(victim.process().pid())).start().waitFor();
            long detected = awaitDead(nodeId) - stoppedAt;
            victim.process().destroyForcibly().waitFor(); // as a supervisor would, once it is declared dead
            nodes.put(slot, cluster.startWorkerNamed(slot + "-r" + (++replacements), SERVERS, WORKERS, workerArgs));
            awaitProgressFromReplacementOf(nodeId, slot);
            return row("SIGSTOP " + slot, detected, System.nanoTime() - stoppedAt,
                    "marked DEAD, the other worker went on; killed and replaced");
        }

        private String row(String loss, long detectedNanos, long recoveredNanos, String how) {
            String line = String.format(Locale.ROOT, "| %s | %.1f s | %.1f s | %s |", loss, detectedNanos / 1e9,
                    recoveredNanos / 1e9, how);
            System.out.println("[drill] " + line);
            return line;
        }

        private String nodeIdOf(String slot) {
            int rank = Integer.parseInt(slot.substring(slot.indexOf('-') + 1));
            String role = slot.startsWith("server") ? "SERVER" : "WORKER";
            return NodeProcess.poll("the node id of " + slot, RECOVERY_DEADLINE, () -> cluster.schedulerGet(
                    "/api/v1/cluster").map(ChaosDrill::json).flatMap(view -> {
                        for (JsonNode node : view.path("nodes")) {
                            if (node.path("role").asString().equals(role) && node.path("rank").asInt() == rank
                                    && node.path("state").asString().equals("ALIVE")) {
                                return Optional.of(node.path("nodeId").asString());
                            }
                        }
                        return Optional.empty();
                    }));
        }

        /** @return System.nanoTime() when the scheduler no longer shows {@code nodeId} ALIVE */
        private long awaitDead(String nodeId) {
            return NodeProcess.poll(nodeId + " marked DEAD", RECOVERY_DEADLINE, () -> cluster.schedulerGet(
                    "/api/v1/cluster").map(ChaosDrill::json).flatMap(view -> {
                        for (JsonNode node : view.path("nodes")) {
                            if (node.path("nodeId").asString().equals(nodeId)
                                    && node.path("state").asString().equals("ALIVE")) {
                                return Optional.empty();
                            }
                        }
                        return Optional.of(System.nanoTime());
                    }));
        }

        private void awaitProgressFromReplacementOf(String oldNodeId, String slot) {
            String replacement = NodeProcess.poll("a replacement for " + slot, RECOVERY_DEADLINE, () -> {
                String id = nodeIdOf(slot);
                return id.equals(oldNodeId) ? Optional.empty() : Optional.of(id);
            });
            NodeProcess.poll("progress from " + replacement, RECOVERY_DEADLINE, () -> cluster
                    .schedulerGet("/api/v1/job").map(ChaosDrill::json).flatMap(job -> {
                        for (JsonNode report : job.path("latest")) {
                            if (report.path("nodeId").asString().equals(replacement)) {
                                return Optional.of(true);
                            }
                        }
                        return Optional.empty();
                    }));
        }

        private long maxStep() {
            return cluster.schedulerGet("/api/v1/job").map(ChaosDrill::json).map(job -> {
                long max = -1;
                for (JsonNode report : job.path("latest")) {
                    max = Math.max(max, report.path("globalStep").asLong());
                }
                return max;
            }).orElse(-1L);
        }

        private int recoveries() {
            int count = 0;
            for (Map.Entry<String, NodeProcess> node : nodes.entrySet()) {
                if (node.getKey().startsWith("worker")) {
                    count += (int) RECOVERED.matcher(node.getValue().logText()).results().count();
                }
            }
            return count;
        }
    }
}
