package io.jvmps.server.web;

import io.jvmps.server.support.ServerSpringTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP side of a server: status JSON, actuator health groups, Prometheus metrics. */
@ServerSpringTest
class StatusEndpointsTest {
    @Autowired
    WebTestClient http;

    @Test
    void statusDescribesTheServer() {
        http.get().uri("/api/v1/status").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.rank").isEqualTo(0)
                .jsonPath("$.nodeId").isEqualTo("server-0-standalone")
                .jsonPath("$.consistency").isEqualTo("SYNC")
                .jsonPath("$.optimizer").isEqualTo("SGD(lr=0.5)")
                .jsonPath("$.expectedWorkers").isEqualTo(1)
                .jsonPath("$.slices").isNumber()
                .jsonPath("$.minVersion").isNumber()
                .jsonPath("$.pushesApplied").isNumber()
                .jsonPath("$.staleness").isEqualTo(0)
                .jsonPath("$.geoInterval").isEqualTo(0)
                .jsonPath("$.workerClocks").isEmpty();
    }

    @Test
    void healthIsUpWithProbesAndTheStoreIndicator() {
        http.get().uri("/actuator/health").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.status").isEqualTo("UP")
                .jsonPath("$.components.parameterServer.details.registered").isEqualTo(true);
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
        http.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
    }

    @Test
    void prometheusExposesServerMeters() {
        http.get().uri("/actuator/prometheus").exchange()
                .expectStatus().isOk()
                .expectBody(String.class)
                .value(body -> assertThat(body)
                        .contains("ps_server_bytes_in_bytes_total")
                        .contains("ps_server_updates_applied_total")
                        .contains("ps_server_slices")
                        .contains("ps_server_sync_step_wait_seconds_count")
                        .contains("ps_server_sync_step_wait_max_seconds"));
    }
}
