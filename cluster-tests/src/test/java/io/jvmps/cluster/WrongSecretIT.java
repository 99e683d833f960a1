package io.jvmps.cluster;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real processes with a cluster secret that differs from the scheduler's: the server and the worker
 * stop at once (no retry loop until the registration deadline) with a message naming the problem,
 * and the scheduler's cluster stays empty.
 */
class WrongSecretIT {

    @Test
    void nodesWithAWrongSecretExitAtOnceAndRegisterNothing() throws Exception {
        try (LocalCluster cluster = new LocalCluster("wrong-secret")) {
            NodeProcess scheduler = cluster.startScheduler(1, 1);
            NodeProcess server = cluster.startServer(0, 1, 1, "--ps.security.secret=not-the-cluster-secret-0000");
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.security.secret=not-the-cluster-secret-0000",
                    "--ps.worker.dataset.format=SYNTHETIC");

            assertThat(server.awaitExit(Duration.ofSeconds(90))).as(server.tail()).isEqualTo(2);
            assertThat(server.logText()).contains("refused this server").contains("[UNAUTHENTICATED]")
                    .contains("wrong cluster secret");
            assertThat(worker.awaitExit(Duration.ofSeconds(90))).as(worker.tail()).isEqualTo(1);
            assertThat(worker.logText()).contains("[UNAUTHENTICATED]").contains("wrong cluster secret");

            String view = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                            "http://127.0.0.1:" + cluster.schedulerPort() + "/api/v1/cluster")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(view).contains("\"nodes\":[]");
            assertThat(scheduler.logText()).contains("Rejected POST /api/v1/nodes").contains("wrong cluster secret")
                    .doesNotContain("not-the-cluster-secret-0000");
        }
    }
}
