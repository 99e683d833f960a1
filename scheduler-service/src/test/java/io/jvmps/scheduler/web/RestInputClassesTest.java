package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.jvmps.common.testing.JsonBodies.badValues;
import static io.jvmps.common.testing.JsonBodies.body;
import static io.jvmps.common.testing.JsonBodies.with;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every field of every REST request body, in whole classes of bad input: a value of the wrong type (a string
 * for a number, an object, an array), out of range, missing where it is required, or given twice. Each is
 * answered 400 INVALID_ARGUMENT with a message naming the field, changes nothing (the cluster view and the job
 * are as before), and puts no stack trace in the log.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1", "ps.scheduler.node-id-seed=44"})
@AutoConfigureWebTestClient(timeout = "30s")
@DirtiesContext
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class RestInputClassesTest {
    private WebTestClient http;
    private static String worker;
    private static String workerToken;
    private static String server;
    private static String serverToken;

    /** A route, a valid body (field order kept), the fields that must be present, and those that must be >= 0. */
    private record Route(String path, Map<String, Object> body, List<String> required, List<String> nonNegative) {
    }

    @Autowired
    void client(WebTestClient anonymous) {
        this.http = anonymous.mutate().defaultHeader("Authorization", "Bearer test-cluster-secret-0123456789").build();
    }

    @BeforeAll
    void registerTheJob() {
        RegisterResponse s = register(new RegisterRequest(NodeRole.SERVER, "10.0.0.1", 9000, 8081, null));
        server = s.nodeId();
        serverToken = s.nodeToken();
        RegisterResponse w = register(new RegisterRequest(NodeRole.WORKER, "10.0.0.2", 0, 8082, null));
        worker = w.nodeId();
        workerToken = w.nodeToken();
        assertThat(workerToken).hasSize(43).isNotEqualTo(serverToken);
    }

    private static List<Route> routes() {
        return List.of(
                new Route("/api/v1/nodes", body("role", "worker", "host", "10.0.0.9", "rsocketPort", 0, "httpPort", 8089),
                        List.of("role", "host"), List.of("rsocketPort", "httpPort")),
                new Route("/api/v1/progress", body("nodeId", "WORKER", "epoch", 1, "step", 2, "globalStep", 2, "loss", 0.5,
                        "imagesPerSecond", 10.0, "bytesPushed", 100, "bytesPulled", 100),
                        List.of("nodeId"), List.of("epoch", "step", "globalStep", "bytesPushed", "bytesPulled")),
                new Route("/api/v1/results", body("nodeId", "WORKER", "correct", 5, "total", 10, "trainSeconds", 1.5),
                        List.of("nodeId"), List.of("correct", "total")),
                new Route("/api/v1/data/partitions", body("nodeId", "WORKER", "epochs", 1, "partitions", 4,
                        "doneEpoch", -1, "donePartition", -1), List.of("nodeId"), List.of("epochs", "partitions")),
                new Route("/api/v1/job/failure", body("nodeId", "WORKER", "reason", "a server was lost"),
                        List.of("nodeId", "reason"), List.of()));
    }

    /** @return (path, field, what, JSON) for every field of every route and every class of bad value */
    Stream<Object[]> cases() {
        return routes().stream().flatMap(route -> badValues(route.path(), route.body(), route.required(),
                route.nonNegative().stream().collect(java.util.stream.Collectors.toMap(f -> f, f -> "-7"))).stream());
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @MethodSource("cases")
    void aBadValueIsRefusedNamingItsFieldAndChangesNothing(String path, String field, String what, String body,
                                                          CapturedOutput output) {
        String before = state();
        EntityExchangeResult<String> answer = http.post().uri(path).contentType(MediaType.APPLICATION_JSON)
                .header("X-PS-Node-Token", workerToken)
                .bodyValue(body.replace("WORKER", worker)).exchange().expectBody(String.class).returnResult();
        assertThat(answer.getStatus().value()).as(body + " -> " + answer.getResponseBody()).isEqualTo(400);
        assertThat(answer.getResponseBody()).as(body).contains("\"code\":\"INVALID_ARGUMENT\"").contains(field);
        assertThat(state()).as("nothing changed").isEqualTo(before);
        assertThat(output.getAll()).doesNotContain("\tat ");
    }

    /** @return (path, field, what, JSON) for every field of a server's heartbeat body and every class of bad value */
    Stream<Object[]> heartbeatCases() {
        Map<String, Object> vitals = body("heapUsedBytes", 1000, "heapMaxBytes", 4000, "pushP99Seconds", 0.002,
                "pullP99Seconds", 0.004, "checkpointStep", 20, "checkpointAgeSeconds", 3.5, "stalenessServed", 1);
        Map<String, String> outOfRange = Map.of("heapUsedBytes", "-7", "heapMaxBytes", "-7", "pushP99Seconds", "-7",
                "pullP99Seconds", "-0.5", "checkpointStep", "-7", "checkpointAgeSeconds", "-7", "stalenessServed", "-7");
        return badValues("/api/v1/nodes/SERVER/heartbeat", vitals, List.of(), outOfRange).stream();
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @MethodSource("heartbeatCases")
    void aBadHeartbeatBodyIsRefusedNamingItsFieldAndChangesNothing(String path, String field, String what,
                                                                  String body, CapturedOutput output) {
        String before = state() + servers();
        EntityExchangeResult<String> answer = http.put().uri(path.replace("SERVER", server))
                .contentType(MediaType.APPLICATION_JSON).header("X-PS-Node-Token", serverToken)
                .bodyValue(body).exchange().expectBody(String.class).returnResult();
        assertThat(answer.getStatus().value()).as(body + " -> " + answer.getResponseBody()).isEqualTo(400);
        assertThat(answer.getResponseBody()).as(body).contains("\"code\":\"INVALID_ARGUMENT\"").contains(field);
        assertThat(state() + servers()).as("nothing changed").isEqualTo(before);
        assertThat(output.getAll()).doesNotContain("\tat ");
    }

    /** @return the servers panel of the dashboard: what the servers reported with their heartbeats */
    private String servers() {
        return http.get().uri("/api/v1/dashboard").exchange().expectBody(String.class).returnResult()
                .getResponseBody().replaceAll(".*\"servers\":", "");
    }

    /** @return (method, path, body) of every call made in a node's name, with {@code WORKER} for the worker's id */
    Stream<Object[]> callsInAWorkersName() {
        List<Object[]> calls = new ArrayList<>();
        for (Route route : routes()) {
            if (route.body().containsKey("nodeId")) {
                calls.add(new Object[] {"POST", route.path(), with(route.body(), "nodeId", "\"WORKER\"")});
            }
        }
        calls.add(new Object[] {"PUT", "/api/v1/nodes/WORKER/heartbeat", null});
        calls.add(new Object[] {"DELETE", "/api/v1/nodes/WORKER", null});
        calls.add(new Object[] {"DELETE", "/api/v1/nodes/WORKER?failed=true", null});
        calls.add(new Object[] {"POST", "/api/v1/nodes", "{\"role\":\"worker\",\"host\":\"10.6.6.6\",\"rsocketPort\":0,"
                + "\"httpPort\":1,\"previousNodeId\":\"WORKER\",\"previousRank\":0}"});
        List<Object[]> all = new ArrayList<>();
        for (Object[] call : calls) {
            for (String token : List.of("none", "wrong", "the server's")) {
                all.add(new Object[] {call[0], call[1], call[2], token});
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1} with {3} token")
    @MethodSource("callsInAWorkersName")
    void aCallInAnotherNodesNameIsRefusedAndChangesNothing(String method, String path, String body, String token,
                                                          CapturedOutput output) {
        String before = state();
        var request = http.method(org.springframework.http.HttpMethod.valueOf(method)).uri(path.replace("WORKER", worker));
        if (!token.equals("none")) {
            request.header("X-PS-Node-Token", token.equals("wrong") ? workerToken.substring(1) + "x" : serverToken);
        }
        if (body != null) {
            request.contentType(MediaType.APPLICATION_JSON).bodyValue(body.replace("WORKER", worker));
        }
        EntityExchangeResult<String> answer = request.exchange().expectBody(String.class).returnResult();
        assertThat(answer.getStatus().value()).as(path + " -> " + answer.getResponseBody()).isEqualTo(401);
        assertThat(answer.getResponseBody()).contains("\"code\":\"UNAUTHENTICATED\"").contains(worker)
                .contains("X-PS-Node-Token").doesNotContain(workerToken).doesNotContain(serverToken);
        assertThat(state()).as("nothing changed").isEqualTo(before);
        assertThat(output.getAll()).doesNotContain("\tat ").doesNotContain(workerToken).doesNotContain(serverToken);
    }

    private String state() {
        String cluster = http.get().uri("/api/v1/cluster").exchange().expectBody(String.class).returnResult()
                .getResponseBody();
        String job = http.get().uri("/api/v1/job").exchange().expectBody(String.class).returnResult().getResponseBody();
        return cluster.replaceAll("\"lastHeartbeatMillis\":\\d+", "") + job;
    }

    private RegisterResponse register(RegisterRequest request) {
        return http.post().uri("/api/v1/nodes").bodyValue(request).exchange().expectStatus().isOk()
                .expectBody(RegisterResponse.class).returnResult().getResponseBody();
    }
}
