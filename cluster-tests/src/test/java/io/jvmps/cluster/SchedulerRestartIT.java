package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler killed with SIGKILL mid-training and started again on its port: training goes on
 * (it never passes through the scheduler), every node registers again with its old id and rank, and
 * the new scheduler sees the job to FINISHED.
 */
class SchedulerRestartIT {
    private static final Pattern PARTITION = Pattern.compile("Training data partition (\\d+) of epoch (\\d+) ");
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern NODE = Pattern.compile("\"nodeId\":\"((?:server|worker)-\\d+-[0-9a-f]+)\",\"role\":\"(\\w+)\""
            + ",\"rank\":(\\d+)");

    @Test
    void trainingSurvivesASchedulerRestartAndNodesKeepTheirRanks() throws Exception {
        try (LocalCluster cluster = new LocalCluster("scheduler-restart")) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 2, "--ps.consistency.mode=SYNC", "--ps.node.heartbeat-interval=300ms");
            }
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                        "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=128", "--ps.worker.training.batch-size=16",
                        "--ps.worker.training.epochs=4", "--ps.worker.training.max-steps=60", "--ps.worker.training.seed=7",
                        "--ps.worker.training.log-interval=10", "--ps.worker.training.step-delay=400ms",
                        "--ps.worker.servers.wait-interval=500ms",
                        "--ps.node.heartbeat-interval=300ms");
            }
            workers[0].awaitLog(Pattern.compile("epoch: 1 step: 20,"), Duration.ofMinutes(3));
            List<String> before = nodes(cluster.schedulerGet("/api/v1/cluster").orElseThrow());
            assertThat(before).hasSize(4);
            scheduler.process().destroyForcibly().waitFor();
            NodeProcess second = cluster.restartScheduler("scheduler-restarted", 2, 2);

            List<String> after = NodeProcess.poll("every node registered again", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/cluster").map(SchedulerRestartIT::nodes)
                            .filter(n -> n.size() == 4));
            assertThat(after).as("same ids and ranks after the restart").containsExactlyInAnyOrderElementsOf(before);
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.name() + "\n" + worker.tail()).isZero();
                assertThat(worker.logText()).contains("Training finished: 60 steps");
            }
            String job = NodeProcess.poll("the new scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":2");
            assertThat(second.logText()).contains("came back with its rank");
        }
    }

    /**
     * With {@code ps.scheduler.state-dir}, the job's state survives the scheduler's SIGKILL: a DYNAMIC + ASYNC job
     * whose workers lease data partitions from the scheduler goes on after the restart from the saved leases and
     * finished partitions (the workers retry their lease requests while it is down), so every partition is
     * trained exactly once and every batch reaches the servers once (their slices end at version 128).
     */
    @Test
    void withAStateDirectoryLeasesAndFinishedPartitionsSurviveASchedulerKillAndEachPartitionIsTrainedOnce()
            throws Exception {
        try (LocalCluster cluster = new LocalCluster("scheduler-restart-state")) {
            String state = "--ps.scheduler.state-dir=" + cluster.freshDir("scheduler-state");
            NodeProcess scheduler = cluster.startScheduler(2, 2, state);
            List<NodeProcess> servers = new ArrayList<>();
            for (int s = 0; s < 2; s++) {
                servers.add(cluster.startServer(s, 2, 2, "--ps.consistency.mode=ASYNC",
                        "--ps.node.heartbeat-interval=300ms"));
            }
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                        "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=128", "--ps.worker.training.batch-size=16",
                        "--ps.worker.training.epochs=2", "--ps.worker.dataset.sharding=DYNAMIC", "--ps.worker.dataset.partitions=8",
                        "--ps.worker.training.seed=7", "--ps.worker.training.log-interval=10", "--ps.worker.training.step-delay=150ms",
                        "--ps.worker.servers.wait-interval=500ms", "--ps.node.heartbeat-interval=300ms");
            }
            workers[0].awaitLog(Pattern.compile("Training data partition \\d+ of epoch 1 \\(8 steps; [4-9] of 16 partitions done"),
                    Duration.ofMinutes(3));
            scheduler.process().destroyForcibly().waitFor();
            // Started again only once a worker has found it gone: a scheduler that comes back within one
            // partition's time (1.2 s here) would otherwise never be missed, and nothing would be tested.
            NodeProcess.poll("a worker to find the scheduler gone mid-job", Duration.ofMinutes(1), () ->
                    java.util.Arrays.stream(workers).filter(w -> w.logText().contains(
                            "the scheduler could not lease a data partition yet")).findFirst());
            NodeProcess second = cluster.restartScheduler("scheduler-restarted", 2, 2, state);
            assertThat(second.logText()).contains("Restored the job's state from");

            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.name() + "\n" + worker.tail()).isZero();
            }
            java.util.Map<String, Integer> trained = new java.util.TreeMap<>();
            for (NodeProcess worker : workers) {
                Matcher m = PARTITION.matcher(worker.logText());
                while (m.find()) {
                    trained.merge(m.group(2) + ":" + m.group(1), 1, Integer::sum);
                }
            }
            System.out.println("partitions trained across the scheduler restart: " + trained);
            assertThat(trained).as("every (epoch, partition) leased").hasSize(16);
            assertThat(trained.values()).as("each exactly once").containsOnly(1);
            for (NodeProcess server : servers) {
                int port = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(1)).group(1));
                String status = NodeProcess.poll(server.name() + "'s status", Duration.ofSeconds(10),
                        () -> LocalCluster.get(port, "/api/v1/status"));
                assertThat(status).as(server.name() + ": every batch pushed once")
                        .contains("\"minVersion\":128,\"maxVersion\":128");
            }
            String job = NodeProcess.poll("the new scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":2");
            assertThat(second.logText()).doesNotContain("trained twice").doesNotContain("came back with its rank");
            assertThat(workers[0].logText() + workers[1].logText()).as("the workers waited for the scheduler mid-job")
                    .contains("the scheduler could not lease a data partition yet");
        }
    }

    private static List<String> nodes(String clusterJson) {
        List<String> found = new ArrayList<>();
        Matcher m = NODE.matcher(clusterJson);
        while (m.find()) {
            found.add(m.group(2) + " " + m.group(3) + " " + m.group(1));
        }
        return found;
    }
}
