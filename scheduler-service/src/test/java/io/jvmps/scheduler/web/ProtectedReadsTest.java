package io.jvmps.scheduler.web;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** {@code ps.security.protect-reads=true}: status, cluster view and metrics need the secret; probes do not. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.security.protect-reads=true"})
@AutoConfigureWebTestClient(timeout = "30s")
class ProtectedReadsTest {
    @Autowired
    WebTestClient http;

    @Test
    void readsNeedTheSecretButHealthAndInfoDoNot() {
        for (String path : new String[] {"/api/v1/status", "/api/v1/cluster", "/api/v1/job", "/actuator/prometheus"}) {
            http.get().uri(path).exchange().expectStatus().isUnauthorized()
                    .expectBody().jsonPath("$.code").isEqualTo("UNAUTHENTICATED");
            http.get().uri(path).header("Authorization", "Bearer test-cluster-secret-0123456789").exchange()
                    .expectStatus().isOk();
        }
        http.get().uri("/actuator/health").exchange().expectStatus().isOk();
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
        http.get().uri("/actuator/info").exchange().expectStatus().isOk();
    }
}
