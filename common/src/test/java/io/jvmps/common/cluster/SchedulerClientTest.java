package io.jvmps.common.cluster;

import com.sun.net.httpserver.HttpExchange;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.common.testing.FakeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedulerClientTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** A canned answer. */
    private record Answer(int status, String contentType, String body) {
    }

    /** What the fake scheduler received. */
    private record Received(String method, String path, String contentType, String body, String nodeToken) {
    }

    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private FakeScheduler server;
    private SchedulerClient client;

    @BeforeEach
    void startFakeScheduler() throws IOException {
        server = FakeScheduler.start("/", this::handle);
        client = server.client();
    }

    @AfterEach
    void stopFakeScheduler() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        received.add(new Received(method, path, exchange.getRequestHeaders().getFirst("Content-Type"),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                exchange.getRequestHeaders().getFirst("X-PS-Node-Token")));
        Answer answer = answers.getOrDefault(method + " " + path,
                new Answer(404, "application/json", "{\"code\":\"UNKNOWN_KEY\",\"message\":\"no route " + path + "\"}"));
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        if (answer.contentType() != null) {
            exchange.getResponseHeaders().add("Content-Type", answer.contentType());
        }
        exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            exchange.getResponseBody().write(body);
        }
        exchange.close();
    }

    private void answer(String route, int status, Object body) {
        answers.put(route, new Answer(status, "application/json", body == null ? "" : JSON.writeValueAsString(body)));
    }

    @Test
    void registerSendsTheRequestAsJsonAndReadsTheResponse() {
        NodeInfo me = new NodeInfo("server-1-ab", NodeRole.SERVER, 1, "10.1.2.3", 7001, 8081, NodeState.ALIVE, 1234);
        NodeInfo other = new NodeInfo("server-0-cd", NodeRole.SERVER, 0, "10.1.2.4", 7000, 8080, NodeState.ALIVE, 1200);
        RegisterResponse expected = new RegisterResponse("server-1-ab", 1, new ClusterView(2, 2, 1, List.of(me, other)),
                "token-of-server-1");
        answer("POST /api/v1/nodes", 200, expected);
        RegisterRequest request = new RegisterRequest(NodeRole.SERVER, "10.1.2.3", 7001, 8081, "server-1-old");

        RegisterResponse response = client.register(request);

        assertThat(response).isEqualTo(expected);
        assertThat(response.view().servers()).extracting(NodeInfo::nodeId).containsExactly("server-0-cd", "server-1-ab");
        assertThat(received).singleElement().satisfies(r -> {
            assertThat(r.method()).isEqualTo("POST");
            assertThat(r.path()).isEqualTo("/api/v1/nodes");
            assertThat(r.contentType()).isEqualTo("application/json");
            assertThat(JSON.readValue(r.body(), RegisterRequest.class)).isEqualTo(request);
            assertThat(JSON.readTree(r.body()).get("role").asString()).isEqualTo("SERVER");
            assertThat(r.nodeToken()).as("no token is known for server-1-old").isNull();
        });
        assertThat(response.toString()).doesNotContain("token-of-server-1");
    }

    @Test
    void callsInARegisteredNodesNameCarryItsTokenAndNoOtherCallDoes() {
        NodeInfo me = new NodeInfo("worker-0-ab", NodeRole.WORKER, 0, "h", 0, 1, NodeState.ALIVE, 1);
        answer("POST /api/v1/nodes", 200, new RegisterResponse("worker-0-ab", 0, new ClusterView(1, 1, 1, List.of(me)),
                "token-of-worker-0"));
        answer("PUT /api/v1/nodes/worker-0-ab/heartbeat", 200, new ClusterView(1, 1, 1, List.of(me)));
        answer("PUT /api/v1/nodes/server-9-zz/heartbeat", 200, new ClusterView(1, 1, 1, List.of(me)));
        answer("POST /api/v1/progress", 202, null);
        answer("DELETE /api/v1/nodes/worker-0-ab", 204, null);
        answer("GET /api/v1/cluster", 200, new ClusterView(1, 1, 1, List.of(me)));

        client.register(new RegisterRequest(NodeRole.WORKER, "h", 0, 1, null));
        client.heartbeat("worker-0-ab");
        client.heartbeat("server-9-zz");
        client.reportProgress(new io.jvmps.common.protocol.ProgressReport("worker-0-ab", 0, 1, 1, 0.5, 1, 0, 0));
        client.cluster();
        client.leave("worker-0-ab");
        client.register(new RegisterRequest(NodeRole.WORKER, "h", 0, 1, "worker-0-ab", 0));

        assertThat(received).extracting(r -> r.method() + " " + r.path() + " " + r.nodeToken()).containsExactly(
                "POST /api/v1/nodes null",
                "PUT /api/v1/nodes/worker-0-ab/heartbeat token-of-worker-0",
                "PUT /api/v1/nodes/server-9-zz/heartbeat null",
                "POST /api/v1/progress token-of-worker-0",
                "GET /api/v1/cluster null",
                "DELETE /api/v1/nodes/worker-0-ab token-of-worker-0",
                "POST /api/v1/nodes token-of-worker-0");
        assertThat(client.nodeToken("worker-0-ab")).contains("token-of-worker-0");
        assertThat(client.nodeToken("server-9-zz")).isEmpty();
    }

    @Test
    void errorBodyBecomesAPsExceptionWithTheSchedulersCode() {
        answers.put("PUT /api/v1/nodes/n-7/heartbeat",
                new Answer(404, "application/json", "{\"code\":\"UNKNOWN_KEY\",\"message\":\"no node n-7\"}"));

        assertThatThrownBy(() -> client.heartbeat("n-7"))
                .isInstanceOfSatisfying(PsException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_KEY);
                    assertThat(e.detail()).isEqualTo("no node n-7");
                });
        assertThat(received).singleElement().satisfies(r -> assertThat(r.method()).isEqualTo("PUT"));
    }

    @Test
    void conflictErrorKeepsItsCode() {
        answers.put("POST /api/v1/nodes", new Answer(409, "application/json",
                "{\"code\":\"INVALID_ARGUMENT\",\"message\":\"3 workers registered, 2 expected\"}"));

        assertThatThrownBy(() -> client.register(new RegisterRequest(NodeRole.WORKER, "h", 0, 0, null)))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessage("[INVALID_ARGUMENT] 3 workers registered, 2 expected");
    }

    @Test
    void nonJsonErrorBecomesInternalNamingTheStatus() {
        answers.put("GET /api/v1/cluster", new Answer(500, "text/plain", "upstream exploded"));

        assertThatThrownBy(() -> client.cluster())
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
                .hasMessageContaining("GET /api/v1/cluster")
                .hasMessageContaining("HTTP 500")
                .hasMessageContaining("upstream exploded");
    }

    @Test
    void errorBodyWithAnUnknownCodeBecomesInternal() {
        answers.put("GET /api/v1/job", new Answer(418, "application/json", "{\"code\":\"TEAPOT\",\"message\":\"short\"}"));

        assertThatThrownBy(() -> client.job())
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
                .hasMessageContaining("HTTP 418")
                .hasMessageContaining("TEAPOT");
    }

    @Test
    void closedPortGivesNotReady() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        SchedulerClient nobodyHome = new SchedulerClient("127.0.0.1", port, Duration.ofSeconds(2), FakeScheduler.SECRET);

        assertThatThrownBy(nobodyHome::cluster)
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_READY))
                .hasMessageContaining("127.0.0.1:" + port)
                .hasMessageContaining("unreachable");
    }

    @Test
    void bodilessCallsUseTheRightMethodsAndAcceptEmptyAnswers() {
        answer("DELETE /api/v1/nodes/w-1", 204, null);
        answer("POST /api/v1/progress", 202, null);
        answer("POST /api/v1/results", 202, null);
        ProgressReport progress = new ProgressReport("w-1", 2, 30, 130, 0.25, 512.5, 0, 0);
        ResultReport result = ResultReport.clicks("w-1", io.jvmps.common.metrics.ClickHistogram.of(
                new double[] {0.9, 0.25, 1.0}, new double[] {1, 0, 0}), 42.5);

        client.reportProgress(progress);
        client.reportResult(result);
        client.leave("w-1");

        assertThat(received).extracting(Received::method).containsExactly("POST", "POST", "DELETE");
        assertThat(JSON.readValue(received.get(0).body(), ProgressReport.class)).isEqualTo(progress);
        assertThat(JSON.readValue(received.get(1).body(), ResultReport.class)).isEqualTo(result);
        assertThat(received.get(2).body()).isEmpty();
    }

    @Test
    void readsJobStatusAndIgnoresUnknownFields() {
        answers.put("GET /api/v1/job", new Answer(200, "application/json",
                "{\"state\":\"RUNNING\",\"workersReported\":1,\"expectedWorkers\":2,\"correct\":90,\"total\":100,"
                        + "\"accuracy\":0.9,\"latest\":[{\"nodeId\":\"w-0\",\"epoch\":1,\"step\":5,\"globalStep\":4,"
                        + "\"loss\":1.5,\"imagesPerSecond\":100.0}],\"addedInAFutureVersion\":true}"));

        JobStatus job = client.job();

        assertThat(job).isEqualTo(new JobStatus("RUNNING", 1, 2, 90, 100, 0.9,
                List.of(new ProgressReport("w-0", 1, 5, 4, 1.5, 100.0, 0, 0))));
    }

    @Test
    void readsAClusterViewForHeartbeatAndCluster() {
        ClusterView view = new ClusterView(5, 1, 1, List.of(
                new NodeInfo("w", NodeRole.WORKER, 0, "h1", 0, 0, NodeState.DEAD, 5),
                new NodeInfo("s", NodeRole.SERVER, 0, "h2", 7000, 0, NodeState.ALIVE, 6)));
        answer("PUT /api/v1/nodes/s/heartbeat", 200, view);
        answer("GET /api/v1/cluster", 200, view);

        assertThat(client.heartbeat("s")).isEqualTo(view);
        assertThat(client.cluster()).isEqualTo(view);
        assertThat(client.base().toString()).isEqualTo("http://127.0.0.1:" + server.port());
    }
}
