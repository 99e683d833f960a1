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
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=SOFTMAX", "--ps.worker.data=SYNTHETIC",
                        "--ps.worker.train-limit=1024", "--ps.worker.test-limit=128", "--ps.worker.batch-size=16",
                        "--ps.worker.epochs=4", "--ps.worker.max-steps=60", "--ps.worker.seed=7",
                        "--ps.worker.log-interval=10", "--ps.worker.step-delay=400ms",
                        "--ps.worker.server-wait-interval=500ms",
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

    private static List<String> nodes(String clusterJson) {
        List<String> found = new ArrayList<>();
        Matcher m = NODE.matcher(clusterJson);
        while (m.find()) {
            found.add(m.group(2) + " " + m.group(3) + " " + m.group(1));
        }
        return found;
    }
}
