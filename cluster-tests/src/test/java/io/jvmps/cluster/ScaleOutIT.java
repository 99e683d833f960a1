package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scale-out in SYNC mode: a job of 2 workers ({@code worker-num=2}, {@code max-worker-num=3}) with dynamic
 * data sharding gets a third worker while it trains. The scheduler gives it rank 2, it joins at the next
 * step the servers have not applied, pulls the parameters and from then on every step averages three
 * gradients, on data partitions the scheduler leases it. Every (epoch, partition) is trained exactly once
 * over the three workers; a worker that finds no partition left leaves, and the others' steps stop waiting
 * for it. Every server applied each step once: its version is the last worker's final step. The job
 * finishes with all three results.
 */
class ScaleOutIT {
    private static final int EPOCHS = 6;
    private static final int PARTITIONS = 8;
    private static final Pattern FINISHED = Pattern.compile("Training finished: (\\d+) steps");
    private static final Pattern JOINED = Pattern.compile("Joined a running job at step (\\d+) as worker rank 2");
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern PARTITION = Pattern.compile("Training data partition (\\d+) of epoch (\\d+) ");
    private static final Pattern ACCURACY = Pattern.compile("Test accuracy on this worker's shard .*: ([0-9.]+) ");
    private static final Pattern VERSIONS = Pattern.compile("\"minVersion\":(\\d+),\"maxVersion\":(\\d+)");

    @Test
    void aThirdWorkerJoinsARunningJobAndTheDataIsTrainedOnceOverAllThree() throws Exception {
        try (LocalCluster cluster = new LocalCluster("scale-out")) {
            NodeProcess scheduler = cluster.startScheduler(2, 2, "--ps.cluster.max-worker-num=3",
                    "--ps.scheduler.heartbeat-timeout=3s", "--ps.scheduler.failure-check-interval=200ms");
            String[] serverArgs = LocalCluster.fastFailureServerArgs("SYNC", "--ps.cluster.max-worker-num=3");
            List<NodeProcess> servers = List.of(cluster.startServer(0, 2, 2, serverArgs),
                    cluster.startServer(1, 2, 2, serverArgs));
            List<NodeProcess> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                workers.add(startWorker(cluster, w));
            }
            workers.get(0).awaitLog(PARTITION, Duration.ofMinutes(3));
            workers.add(startWorker(cluster, 2));
            NodeProcess third = workers.get(2);
            long joinedAt = Long.parseLong(third.awaitLog(JOINED, Duration.ofMinutes(3)).group(1));
            third.awaitLog(PARTITION, Duration.ofMinutes(1));
            assertThat(scheduler.logText()).contains("assign rank id:2 (scale-out");
            System.out.printf("worker 2 joined at step %d%n", joinedAt);

            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + "\n" + worker.tail()).isZero();
            }
            Set<String> trained = new HashSet<>();
            int leases = 0;
            for (NodeProcess worker : workers) {
                Matcher m = PARTITION.matcher(worker.logText());
                int own = 0;
                while (m.find()) {
                    trained.add(m.group(2) + ":" + m.group(1));
                    own++;
                }
                leases += own;
                System.out.printf("%s trained %d partitions%n", worker.name(), own);
                assertThat(own).as(worker.name() + " trained some of the data").isPositive();
            }
            assertThat(trained).as("every (epoch, partition)").hasSize(EPOCHS * PARTITIONS);
            assertThat(leases).as("each trained once").isEqualTo(EPOCHS * PARTITIONS);
            assertThat(third.logText()).contains("No test shard for scale-out worker rank 2");
            for (NodeProcess worker : workers.subList(0, 2)) {
                Matcher accuracy = ACCURACY.matcher(worker.logText());
                assertThat(accuracy.find()).as(worker.tail()).isTrue();
                assertThat(Double.parseDouble(accuracy.group(1))).as(worker.name()).isGreaterThan(0.3);
            }
            long steps = 0;
            for (NodeProcess worker : workers) {
                Matcher m = FINISHED.matcher(worker.logText());
                assertThat(m.find()).as(worker.tail()).isTrue();
                steps = Math.max(steps, Long.parseLong(m.group(1)));
            }
            for (NodeProcess server : servers) {
                int port = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(1)).group(1));
                String status = NodeProcess.poll(server.name() + "'s status", Duration.ofSeconds(10),
                        () -> LocalCluster.get(port, "/api/v1/status"));
                Matcher v = VERSIONS.matcher(status);
                assertThat(v.find()).as(status).isTrue();
                assertThat(v.group(1) + "-" + v.group(2)).as(server.name() + ": each step applied once")
                        .isEqualTo(steps + "-" + steps);
            }
            String job = NodeProcess.poll("the scheduler's job to be FINISHED", Duration.ofSeconds(30),
                    () -> cluster.schedulerGet("/api/v1/job").filter(b -> b.contains("\"FINISHED\"")));
            assertThat(job).contains("\"workersReported\":3", "\"expectedWorkers\":3");
        }
    }

    private static NodeProcess startWorker(LocalCluster cluster, int index) throws Exception {
        return cluster.startWorker(index, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                "--ps.worker.dataset.train-limit=1024", "--ps.worker.dataset.test-limit=256", "--ps.worker.training.batch-size=16",
                "--ps.worker.training.epochs=" + EPOCHS, "--ps.worker.dataset.sharding=DYNAMIC",
                "--ps.worker.dataset.partitions=" + PARTITIONS, "--ps.worker.training.seed=7", "--ps.worker.training.log-interval=20",
                "--ps.worker.training.step-delay=100ms", "--ps.node.heartbeat-interval=300ms");
    }
}
