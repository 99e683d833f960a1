package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real job on a slice of real MNIST: 1 scheduler, 2 servers, 2 workers training LeNet-5 with
 * synchronous SGD (server-side Adam). Checks the MindSpore-style log lines and that the accuracy
 * the scheduler aggregates from the workers is clearly above chance.
 */
class LeNetMnistIT {

    @Test
    void lenetOnEightThousandImagesReachesNinetyPercent() throws Exception {
        Path data = TestPaths.mnist();
        try (LocalCluster cluster = new LocalCluster("lenet-mnist")) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            NodeProcess[] servers = new NodeProcess[2];
            for (int s = 0; s < 2; s++) {
                servers[s] = cluster.startServer(s, 2, 2, "--ps.optimizer.learning-rate=0.002");
            }
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.dataset.path=" + data,
                        "--ps.worker.dataset.train-limit=8000", "--ps.worker.dataset.test-limit=2000", "--ps.worker.training.epochs=2",
                        "--ps.worker.training.batch-size=32");
            }
            workers[0].awaitLog(Pattern.compile("epoch: 1 step: 30, loss is"), Duration.ofMinutes(5));
            assertNodesReadByThreadCpu(servers, workers);
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(8))).as(worker.name() + "\n" + worker.tail()).isZero();
                assertThat(worker.logText()).containsPattern("epoch: 1 step: 1, loss is \\d\\.\\d{6}")
                        .containsPattern("epoch: 2 step: 120, loss is \\d\\.\\d{6}");
            }
            assertThat(scheduler.logText()).contains("Start the scheduler node is successful!")
                    .containsPattern("The server node id:\\S+, assign rank id:0")
                    .containsPattern("The worker node id:\\S+, assign rank id:1");
            Matcher done = scheduler.awaitLog(Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)"),
                    Duration.ofSeconds(30));
            assertThat(Long.parseLong(done.group(3))).isEqualTo(2000);
            assertThat(Double.parseDouble(done.group(1))).isGreaterThanOrEqualTo(90.0);

            String job = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + cluster.schedulerPort() + "/api/v1/job")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(job).contains("\"state\":\"FINISHED\"").contains("\"total\":2000");
        }
    }

    /** scripts/thread-cpu.sh names each node by role and shows the workers' training and the servers' event loops. */
    private static void assertNodesReadByThreadCpu(NodeProcess[] servers, NodeProcess[] workers) throws Exception {
        ThreadCpuScript.Result result = ThreadCpuScript.run("2", Long.toString(servers[0].process().pid()),
                Long.toString(servers[1].process().pid()), Long.toString(workers[0].process().pid()),
                Long.toString(workers[1].process().pid()));
        assertThat(result.exit()).as(result.output()).isZero();
        for (NodeProcess worker : workers) {
            assertThat(result.rows()).as(result.output()).anySatisfy(row -> {
                assertThat(row.node()).isEqualTo("worker/" + worker.process().pid());
                assertThat(row.threads()).isEqualTo("training");
                assertThat(row.cpu()).isPositive();
            });
        }
        for (NodeProcess server : servers) {
            assertThat(result.rows()).as(result.output()).anySatisfy(row -> {
                assertThat(row.node()).isEqualTo("server/" + server.process().pid());
                assertThat(row.threads()).isEqualTo("reactor-http-ep");
                assertThat(row.cpu()).isPositive();
            });
        }
    }
}
