package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker training through an embedding cache is stopped with SIGTERM mid-training: before it exits it
 * writes every changed cached row back to the server. The cache is large enough that nothing was evicted
 * before the stop, so without that write-back the server would hold none of the worker's rows; with it,
 * the server holds exactly the rows the cache wrote back.
 */
class CtrGracefulShutdownIT {
    private static final Pattern HTTP_PORT = Pattern.compile("Netty started on port (\\d+)");
    private static final Pattern DEEP_CACHE = Pattern.compile(
            "Embedding cache ctr.deep: hit rate [0-9.]+ \\((\\d+) hits, (\\d+) misses.*?(\\d+) evictions, (\\d+) write-backs");

    @Test
    void sigtermWritesTheCacheBackBeforeExit() throws Exception {
        try (LocalCluster cluster = new LocalCluster("ctr-graceful-shutdown")) {
            cluster.startScheduler(1, 1);
            NodeProcess server = cluster.startServer(0, 1, 1, "--ps.optimizer.type=SGD",
                    "--ps.optimizer.learning-rate=0.5", "--ps.consistency.mode=SYNC");
            int serverHttp = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(90)).group(1));
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.worker.job=CTR", "--ps.worker.ctr.fields=4",
                    "--ps.worker.ctr.vocabulary=50000", "--ps.worker.ctr.crosses=0",
                    "--ps.worker.ctr.train-size=200000", "--ps.worker.ctr.test-size=1000", "--ps.worker.ctr.dim=4",
                    "--ps.worker.ctr.vocab-cache-size=60000", "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=1",
                    "--ps.worker.training.log-interval=20");
            worker.awaitLog(Pattern.compile("epoch: 1 step: 100,"), Duration.ofMinutes(3));
            // the cache's counters are metrics while it trains
            int workerHttp = Integer.parseInt(worker.awaitLog(HTTP_PORT, Duration.ofSeconds(5)).group(1));
            String metrics = LocalCluster.get(workerHttp, "/actuator/prometheus").orElseThrow();
            Matcher hits = Pattern.compile("ps_worker_embedding_cache_hits_total\\{[^}]*table=\"ctr.deep\"[^}]*} ([0-9.E+]+)")
                    .matcher(metrics);
            assertThat(hits.find()).as(metrics).isTrue();
            assertThat(Double.parseDouble(hits.group(1))).as("cache hits of ctr.deep after 100 steps in\n"
                    + metrics.lines().filter(l -> l.contains("embedding_cache")).collect(java.util.stream.Collectors.joining("\n")))
                    .isPositive();
            worker.process().destroy(); // SIGTERM
            assertThat(worker.awaitExit(Duration.ofSeconds(90))).as(worker.tail()).isNotZero();

            String log = worker.logText();
            assertThat(log).contains("Embedding caches written back after the stop")
                    .contains("Training stopped: the worker was asked to shut down before training finished")
                    .as("a stop is not a failure").doesNotContain("Worker failed").doesNotContain("\tat ")
                    .as("the stopped job ends the shutdown's wait").doesNotContain("Training did not stop within");
            Matcher deep = DEEP_CACHE.matcher(log);
            assertThat(deep.find()).as(worker.tail()).isTrue();
            long evictions = Long.parseLong(deep.group(3));
            long writeBacks = Long.parseLong(deep.group(4));
            assertThat(evictions).as("nothing evicted before the stop").isZero();
            assertThat(writeBacks).as("rows written back at the stop").isGreaterThan(1000);

            String status = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + serverHttp + "/api/v1/status")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            Matcher rows = Pattern.compile("\"name\"\\s*:\\s*\"ctr.deep\"[^}]*?\"rows\"\\s*:\\s*(\\d+)").matcher(status);
            assertThat(rows.find()).as(status).isTrue();
            assertThat(Long.parseLong(rows.group(1))).as("deep rows on the server").isEqualTo(writeBacks);
        }
    }
}
