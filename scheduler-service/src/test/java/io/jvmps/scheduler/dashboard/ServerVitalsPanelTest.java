package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ServerVitals;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The servers panel's data: what a server sends with its heartbeat is on its row of the dashboard snapshot; what a
 * worker sends is not kept.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1"})
@AutoConfigureWebTestClient(timeout = "20s")
@DirtiesContext
class ServerVitalsPanelTest {
    private static final String AUTH = "Bearer test-cluster-secret-0123456789";

    @Autowired
    WebTestClient http;

    @Test
    void aServersHeartbeatReportIsOnItsRowAndAWorkersIsNot() {
        RegisterResponse server = register(NodeRole.SERVER, 7001);
        RegisterResponse worker = register(NodeRole.WORKER, 0);
        heartbeat(server, new ServerVitals(64 << 20, 512 << 20, 0.0042, 0.0125, 40, 3.5, 0, java.util.List.of(
                new io.jvmps.common.sparse.SparseTableStatus("ads", 8, "SGD", 120, 9000, 30, 150, 30, 77))));
        heartbeat(worker, new ServerVitals(1, 2, 1, 1, 1, 1, 1));

        http.get().uri("/api/v1/dashboard").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.servers.length()").isEqualTo(1)
                .jsonPath("$.servers[0].nodeId").isEqualTo(server.nodeId())
                .jsonPath("$.servers[0].rank").isEqualTo(server.rank())
                .jsonPath("$.servers[0].state").isEqualTo("ALIVE")
                .jsonPath("$.servers[0].vitals.heapUsedBytes").isEqualTo(64 << 20)
                .jsonPath("$.servers[0].vitals.pushP99Seconds").isEqualTo(0.0042)
                .jsonPath("$.servers[0].vitals.checkpointStep").isEqualTo(40)
                .jsonPath("$.servers[0].vitals.sparseTables[0].name").isEqualTo("ads")
                .jsonPath("$.servers[0].vitals.sparseTables[0].evicted").isEqualTo(30)
                .jsonPath("$.servers[0].vitals.sparseTables[0].dropped").isEqualTo(77);

        http.put().uri("/api/v1/nodes/" + server.nodeId() + "/heartbeat").header("Authorization", AUTH)
                .header("X-PS-Node-Token", server.nodeToken()).bodyValue(new ServerVitals(1, 2, 0, 0, -1, -1, 0,
                        java.util.List.of(new io.jvmps.common.sparse.SparseTableStatus("ads", 8, "SGD", -1, 0, 0, 0, 0,
                                0)))).exchange().expectStatus().isBadRequest().expectBody(String.class)
                .value(body -> org.assertj.core.api.Assertions.assertThat(body).contains("negative count"));
        http.get().uri("/api/v1/dashboard").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.servers[0].vitals.heapUsedBytes").isEqualTo(64 << 20)
                .jsonPath("$.servers[0].vitals.sparseTables[0].rows").isEqualTo(120);
    }

    private void heartbeat(RegisterResponse node, ServerVitals vitals) {
        http.put().uri("/api/v1/nodes/" + node.nodeId() + "/heartbeat").header("Authorization", AUTH)
                .header("X-PS-Node-Token", node.nodeToken()).bodyValue(vitals).exchange().expectStatus().isOk();
    }

    private RegisterResponse register(NodeRole role, int rsocketPort) {
        return http.post().uri("/api/v1/nodes").header("Authorization", AUTH)
                .bodyValue(new RegisterRequest(role, "10.0.0.9", rsocketPort, 8080, null))
                .exchange().expectStatus().isOk().expectBody(RegisterResponse.class).returnResult().getResponseBody();
    }
}
