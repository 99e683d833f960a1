package io.jvmps.worker.web;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The worker's REST surface while it is still looking for its scheduler: status says so, and
 * health and Prometheus answer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.scheduler.port=1", "ps.worker.lifecycle.exit-on-finish=false", "ps.worker.servers.wait-timeout=1h",
        "ps.worker.dataset.format=SYNTHETIC"})
@AutoConfigureWebTestClient(timeout = "30s")
class WorkerEndpointsTest {

    @Autowired
    WebTestClient http;

    @Test
    void statusReportsTheStartingPhaseBeforeRegistration() {
        http.get().uri("/api/v1/status").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.phase").isEqualTo("STARTING")
                .jsonPath("$.rank").isEqualTo(-1)
                .jsonPath("$.globalStep").isEqualTo(0);
    }

    @Test
    void aliveButNotReadyBeforeItReachesTheServers() {
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
        http.get().uri("/actuator/health/readiness").exchange().expectStatus().isEqualTo(503)
                .expectBody()
                .jsonPath("$.status").isEqualTo("OUT_OF_SERVICE")
                .jsonPath("$.components.training.details.phase").isEqualTo("STARTING");
    }

    @Test
    void prometheusExposesTheWorkerMeters() {
        http.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class)
                .value(body -> org.assertj.core.api.Assertions.assertThat(body)
                        .contains("ps_worker_step_seconds{application=\"worker\",quantile=\"0.95\"}")
                        .contains("ps_worker_phase_seconds_count{application=\"worker\",phase=\"pull\"}")
                        .contains("ps_worker_loss{application=\"worker\"}")
                        .contains("ps_worker_accuracy{application=\"worker\"}")
                        .contains("ps_worker_bytes_pushed_bytes_total"));
    }
}
