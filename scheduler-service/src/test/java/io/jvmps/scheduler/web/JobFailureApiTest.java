package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.JobFailure;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
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

/**
 * A job that a node reports it cannot go on: FAILED once with the first reason, in the job status, the health,
 * the metrics and every later registration's answer; readiness stays UP so nothing restarts the scheduler.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1", "ps.scheduler.node-id-seed=43"})
@AutoConfigureWebTestClient(timeout = "30s")
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class JobFailureApiTest {
    private static final String TOKEN = "X-PS-Node-Token";
    private static final String LOST = "server rank 0 lost its parameters and there is no checkpoint to restore";

    private WebTestClient http;

    @Autowired
    void client(WebTestClient anonymous) {
        this.http = anonymous.mutate().defaultHeader("Authorization", "Bearer test-cluster-secret-0123456789").build();
    }

    @Test
    void theFirstReportEndsTheJobOnceAndEveryoneSeesWhy(CapturedOutput output) {
        RegisterResponse server = register(new RegisterRequest(NodeRole.SERVER, "10.0.0.1", 9000, 8081, null));
        RegisterResponse worker = register(new RegisterRequest(NodeRole.WORKER, "10.0.0.2", 0, 8082, null));
        assertThat(server.jobStarted()).as("registered before the job was complete").isFalse();
        assertThat(worker.jobStarted()).as("its registration completed the job").isFalse();
        assertThat(worker.jobFailure()).isNull();

        http.post().uri("/api/v1/job/failure").bodyValue(new JobFailure("worker-9-0000", LOST)).exchange()
                .expectStatus().isNotFound().expectBody().jsonPath("$.code").isEqualTo("UNKNOWN_KEY");
        http.post().uri("/api/v1/job/failure").header(TOKEN, worker.nodeToken())
                .bodyValue(new JobFailure(worker.nodeId(), "  ")).exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.code").isEqualTo("INVALID_ARGUMENT")
                .jsonPath("$.message").value(m -> assertThat((String) m).contains("field reason"));
        http.post().uri("/api/v1/job/failure").header(TOKEN, worker.nodeToken()).contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"nodeId\":\"" + worker.nodeId() + "\",\"reason\":\"" + "x".repeat(2001) + "\"}")
                .exchange().expectStatus().isBadRequest();
        http.get().uri("/api/v1/job").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.state").isEqualTo("RUNNING").jsonPath("$.failure").isEmpty();

        http.post().uri("/api/v1/job/failure").header(TOKEN, worker.nodeToken())
                .bodyValue(new JobFailure(worker.nodeId(), LOST)).exchange()
                .expectStatus().isEqualTo(HttpStatus.ACCEPTED);
        http.post().uri("/api/v1/job/failure").header(TOKEN, server.nodeToken())
                .bodyValue(new JobFailure(server.nodeId(), "a later reason"))
                .exchange().expectStatus().isEqualTo(HttpStatus.ACCEPTED);

        String why = LOST + " (reported by worker rank 0 (" + worker.nodeId() + "))";
        http.get().uri("/api/v1/job").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.state").isEqualTo("FAILED").jsonPath("$.failure").isEqualTo(why);
        http.get().uri("/actuator/health").exchange().expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
                .expectBody().jsonPath("$.components.job.status").isEqualTo("DOWN")
                .jsonPath("$.components.job.details.failure").isEqualTo(why);
        http.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
        http.get().uri("/actuator/health/liveness").exchange().expectStatus().isOk();
        String scrape = http.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(scrape).containsPattern("ps_scheduler_job_state\\{[^}]*state=\"failed\"[^}]*} 1\\.0")
                .containsPattern("ps_scheduler_job_state\\{[^}]*state=\"running\"[^}]*} 0\\.0");

        http.delete().uri("/api/v1/nodes/{id}?failed=true", worker.nodeId()).header(TOKEN, worker.nodeToken())
                .exchange().expectStatus().isNoContent();
        RegisterResponse again = register(new RegisterRequest(NodeRole.WORKER, "10.0.0.3", 0, 8083, null));
        assertThat(again.jobStarted()).isTrue();
        assertThat(again.jobFailure()).as("a node started later learns why and does not take part").isEqualTo(why);
        assertThat(output).contains("Job FAILED: " + why)
                .contains("The server rank 0 (" + server.nodeId() + ") also reports the job cannot go on: a later reason");
    }

    private RegisterResponse register(RegisterRequest request) {
        return http.post().uri("/api/v1/nodes").bodyValue(request).exchange()
                .expectStatus().isOk()
                .expectBody(RegisterResponse.class).returnResult().getResponseBody();
    }
}
