package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.test.StepVerifier;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The page and its data on a random port: static page, one snapshot, and the live event stream. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1"})
@AutoConfigureWebTestClient(timeout = "20s")
@DirtiesContext
class DashboardEndpointsTest {
    private static final String AUTH = "Bearer test-cluster-secret-0123456789";

    @Autowired
    WebTestClient http;

    @Test
    void servesThePageAtTheRoot() {
        http.get().uri("/").exchange().expectStatus().isOk()
                .expectBody(String.class).value(page -> assertThat(page).contains("id=\"loss-chart\"")
                        .contains("api/v1/dashboard/stream").doesNotContainPattern("(src|href)=\"https?:"));
    }

    @Test
    void snapshotAndStreamCarryTopologyLossAndEvents() {
        RegisterResponse worker = register(NodeRole.WORKER, 0);
        register(NodeRole.SERVER, 7000);
        http.post().uri("/api/v1/progress").header("Authorization", AUTH).header("X-PS-Node-Token", worker.nodeToken())
                .bodyValue(new ProgressReport(worker.nodeId(), 1, 10, 9, 1.25, 300, 1000, 2000))
                .exchange().expectStatus().is2xxSuccessful();

        http.get().uri("/api/v1/dashboard").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.cluster.nodes.length()").isEqualTo(2)
                .jsonPath("$.job.state").isEqualTo("RUNNING")
                .jsonPath("$.history['0'][0].loss").isEqualTo(1.25)
                .jsonPath("$.events[0].message").isEqualTo("job RUNNING");

        var events = http.get().uri("/api/v1/dashboard/stream").accept(MediaType.TEXT_EVENT_STREAM).exchange()
                .expectStatus().isOk()
                .returnResult(new ParameterizedTypeReference<ServerSentEvent<DashboardSnapshot>>() { })
                .getResponseBody();
        StepVerifier.create(events.take(2))
                .assertNext(e -> {
                    assertThat(e.event()).isEqualTo("snapshot");
                    assertThat(e.data().cluster().nodes()).hasSize(2);
                    assertThat(e.data().history().get(0)).hasSize(1);
                })
                .assertNext(e -> assertThat(e.data().timeMillis()).isPositive())
                .expectComplete()
                .verify(Duration.ofSeconds(10));
    }

    private RegisterResponse register(NodeRole role, int rsocketPort) {
        return http.post().uri("/api/v1/nodes").header("Authorization", AUTH)
                .bodyValue(new RegisterRequest(role, "10.0.0.9", rsocketPort, 8080, null))
                .exchange().expectStatus().isOk().expectBody(RegisterResponse.class).returnResult().getResponseBody();
    }
}
