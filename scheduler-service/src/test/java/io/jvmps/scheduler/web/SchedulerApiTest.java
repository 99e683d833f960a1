package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ResultReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** The REST API end to end on a random port: registration, job flow, error bodies, actuator. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1", "ps.scheduler.node-id-seed=42"})
@AutoConfigureWebTestClient(timeout = "30s")
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class SchedulerApiTest {

    private static final String TOKEN = "X-PS-Node-Token";

    /** The scheduler under test, as a caller that sends the cluster secret (test resources' config/). */
    private WebTestClient http;

    @Autowired
    void client(WebTestClient anonymous) {
        this.anonymous = anonymous;
        this.http = anonymous.mutate().defaultHeader("Authorization", "Bearer test-cluster-secret-0123456789").build();
    }

    private WebTestClient anonymous;

    @Test
    void registersTheClusterAndRunsTheJobToFinished(CapturedOutput output) {
        http.get().uri("/api/v1/job").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.state").isEqualTo("WAITING");

        RegisterResponse server = register(new RegisterRequest(NodeRole.SERVER, "10.0.0.1", 9000, 8081, null));
        assertThat(server.nodeId()).matches("server-0-[0-9a-f]{4}");
        assertThat(server.rank()).isZero();
        assertThat(server.view().epoch()).isEqualTo(1);
        assertThat(output).doesNotContain("Start the scheduler node is successful!");

        String[] workerToken = new String[1];
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"role\":\"worker\",\"host\":\"10.0.0.2\",\"rsocketPort\":0,\"httpPort\":8082}")
                .exchange().expectStatus().isOk()
                .expectBody()
                .jsonPath("$.nodeToken").value(t -> workerToken[0] = (String) t)
                .jsonPath("$.nodeId").value(id -> assertThat((String) id).matches("worker-0-[0-9a-f]{4}"))
                .jsonPath("$.rank").isEqualTo(0)
                .jsonPath("$.view.epoch").isEqualTo(2)
                .jsonPath("$.view.expectedServers").isEqualTo(1)
                .jsonPath("$.view.expectedWorkers").isEqualTo(1)
                .jsonPath("$.view.nodes.length()").isEqualTo(2)
                .jsonPath("$.view.nodes[0].role").isEqualTo("SERVER")
                .jsonPath("$.view.nodes[0].rsocketPort").isEqualTo(9000)
                .jsonPath("$.view.nodes[0].state").isEqualTo("ALIVE")
                .jsonPath("$.view.nodes[1].role").isEqualTo("WORKER");
        assertThat(output).contains("The server node id:" + server.nodeId() + ", assign rank id:0")
                .contains("The worker node id:worker-0-")
                .contains("Start the scheduler node is successful!");
        String worker = http.get().uri("/api/v1/cluster").exchange().expectStatus().isOk()
                .expectBody(io.jvmps.common.cluster.ClusterView.class).returnResult().getResponseBody()
                .workers().get(0).nodeId();

        http.post().uri("/api/v1/nodes").bodyValue(new RegisterRequest(NodeRole.SERVER, "h", 9001, 0, null))
                .exchange().expectStatus().isEqualTo(HttpStatus.CONFLICT)
                .expectBody()
                .jsonPath("$.code").isEqualTo("RESOURCE_EXHAUSTED")
                .jsonPath("$.message").value(m -> assertThat((String) m)
                        .contains("expected 1 (ps.cluster.server-num)").contains("currently registered 1"));

        http.get().uri("/api/v1/cluster").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.epoch").isEqualTo(2)
                .jsonPath("$.nodes.length()").isEqualTo(2);
        http.put().uri("/api/v1/nodes/{id}/heartbeat", worker).header(TOKEN, workerToken[0]).exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.epoch").isEqualTo(2);
        http.get().uri("/api/v1/status").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.role").isEqualTo("scheduler")
                .jsonPath("$.epoch").isEqualTo(2)
                .jsonPath("$.registered.server").isEqualTo(1)
                .jsonPath("$.registered.worker").isEqualTo(1)
                .jsonPath("$.expected.worker").isEqualTo(1)
                .jsonPath("$.job").isEqualTo("RUNNING");

        http.post().uri("/api/v1/progress").header(TOKEN, workerToken[0])
                .bodyValue(new ProgressReport(worker, 1, 100, 99, 0.25, 500.0, 0, 0))
                .exchange().expectStatus().isAccepted();
        http.post().uri("/api/v1/results").header(TOKEN, workerToken[0])
                .bodyValue(new ResultReport(worker, 9876, 10000, 120.5))
                .exchange().expectStatus().isAccepted();
        http.get().uri("/api/v1/job").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.state").isEqualTo("FINISHED")
                .jsonPath("$.workersReported").isEqualTo(1)
                .jsonPath("$.correct").isEqualTo(9876)
                .jsonPath("$.total").isEqualTo(10000)
                .jsonPath("$.accuracy").isEqualTo(0.9876)
                .jsonPath("$.latest[0].loss").isEqualTo(0.25);
        assertThat(output).contains("Worker 0 reported accuracy 9876/10000")
                .contains("Job finished: test accuracy 98.76% (9876/10000)");

        http.delete().uri("/api/v1/nodes/{id}?failed=true", worker).header(TOKEN, workerToken[0]).exchange().expectStatus().isNoContent();
        http.get().uri("/api/v1/cluster").exchange().expectBody()
                .jsonPath("$.epoch").isEqualTo(3)
                .jsonPath("$.nodes[1].state").isEqualTo("DEAD");
        http.delete().uri("/api/v1/nodes/{id}", worker).header(TOKEN, workerToken[0]).exchange().expectStatus().isNoContent();
        http.get().uri("/api/v1/cluster").exchange().expectBody()
                .jsonPath("$.epoch").isEqualTo(4)
                .jsonPath("$.nodes[1].state").isEqualTo("FINISHED");
    }

    @Test
    void heartbeatOfUnknownNodeIs404UnknownKey() {
        http.put().uri("/api/v1/nodes/server-7-abcd/heartbeat").exchange()
                .expectStatus().isNotFound()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.code").isEqualTo("UNKNOWN_KEY")
                .jsonPath("$.message").value(m -> assertThat((String) m).contains("server-7-abcd"));
        http.delete().uri("/api/v1/nodes/server-7-abcd").exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("UNKNOWN_KEY");
    }

    @Test
    void malformedJsonIs400InvalidArgument() {
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"role\": \"server\",")
                .exchange().expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").isNotEmpty();
        http.post().uri("/api/v1/results").contentType(MediaType.APPLICATION_JSON).bodyValue("not json")
                .exchange().expectStatus().isBadRequest()
                .expectBody().jsonPath("$.code").isEqualTo("INVALID_ARGUMENT");
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").isEqualTo("No request body");
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"role\":\"worker\",\"host\":\"h\",\"httpPort\":\"abc\"}")
                .exchange().expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").value(m -> assertThat((String) m)
                        .contains("field httpPort must be a whole number, got \"abc\""));
    }

    @Test
    void frameworkStatusesCarryTheProtocolsCodes() {
        http.get().uri("/api/v1/no-such-route").exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("UNKNOWN_KEY");
        http.post().uri("/api/v1/nodes").contentType(MediaType.TEXT_PLAIN).bodyValue("role=worker")
                .exchange().expectStatus().isEqualTo(415)
                .expectBody().jsonPath("$.code").isEqualTo("INVALID_ARGUMENT");
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"role\":\"worker\",\"host\":\"" + "h".repeat(2 << 20) + "\"}")
                .exchange().expectStatus().isEqualTo(413)
                .expectBody().jsonPath("$.code").isEqualTo("PAYLOAD_TOO_LARGE");
    }

    @Test
    void unknownOrSchedulerRoleIs400() {
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"role\":\"boss\",\"host\":\"h\",\"rsocketPort\":9000}")
                .exchange().expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").value(m -> assertThat((String) m).contains("boss").contains("accepted"));
        http.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"role\":\"scheduler\",\"host\":\"h\"}")
                .exchange().expectStatus().isBadRequest()
                .expectBody()
                .jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").value(m -> assertThat((String) m).contains("role must be server or worker"));
    }

    @Test
    void resultFromUnknownNodeIs404() {
        http.post().uri("/api/v1/results").bodyValue(new ResultReport("worker-5-0000", 1, 2, 0))
                .exchange().expectStatus().isNotFound()
                .expectBody().jsonPath("$.code").isEqualTo("UNKNOWN_KEY");
    }

    @Test
    void actuatorHealthIsUpAndPrometheusAnswers() {
        http.get().uri("/actuator/health").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
        http.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
        String scrape = http.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(scrape).contains("ps_cluster_nodes{").contains("role=\"server\"").contains("state=\"alive\"")
                .contains("ps_scheduler_registrations_total");
        http.get().uri("/actuator/info").exchange().expectStatus().isOk();
    }

    private RegisterResponse register(RegisterRequest request) {
        return http.post().uri("/api/v1/nodes").bodyValue(request).exchange()
                .expectStatus().isOk()
                .expectBody(RegisterResponse.class).returnResult().getResponseBody();
    }

    @Test
    void mutatingCallsWithoutTheRightSecretAreRefusedAndChangeNothing(CapturedOutput output) {
        int before = nodeCount();
        String body = "{\"role\":\"server\",\"host\":\"10.9.9.9\",\"rsocketPort\":9000,\"httpPort\":1}";
        anonymous.post().uri("/api/v1/nodes").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isUnauthorized()
                .expectBody()
                .jsonPath("$.code").isEqualTo("UNAUTHENTICATED")
                .jsonPath("$.message").value(m -> assertThat((String) m).contains("missing cluster secret")
                        .contains("Authorization: Bearer"));
        anonymous.post().uri("/api/v1/nodes").header("Authorization", "Bearer not-the-cluster-secret-at-all")
                .contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isUnauthorized()
                .expectBody().jsonPath("$.message").value(m -> assertThat((String) m).contains("wrong cluster secret"));
        anonymous.delete().uri("/api/v1/nodes/server-0-abcd").exchange().expectStatus().isUnauthorized();
        anonymous.post().uri("/api/v1/results").contentType(MediaType.APPLICATION_JSON).bodyValue("{}")
                .exchange().expectStatus().isUnauthorized();
        assertThat(nodeCount()).isEqualTo(before);
        assertThat(output).contains("Rejected POST /api/v1/nodes").contains("no cluster secret")
                .contains("wrong cluster secret").doesNotContain("not-the-cluster-secret-at-all");
    }

    @Test
    void readsAndProbesStayOpenByDefault() {
        anonymous.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
        anonymous.get().uri("/api/v1/status").exchange().expectStatus().isOk();
        anonymous.get().uri("/actuator/prometheus").exchange().expectStatus().isOk();
    }

    private int nodeCount() {
        return http.get().uri("/api/v1/cluster").exchange().expectStatus().isOk()
                .expectBody(io.jvmps.common.cluster.ClusterView.class).returnResult().getResponseBody().nodes().size();
    }
}
