package io.jvmps.client.control;

import com.sun.net.httpserver.HttpExchange;
import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.testing.FakeScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Registration against a fake scheduler whose job has all its workers (409 RESOURCE_EXHAUSTED): a worker
 * started in place of a crashed one keeps asking until a rank frees up, and gives up at its deadline
 * naming the reason. Leaving says whether the worker finished or failed.
 */
class SchedulerSessionTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String FULL = "{\"code\":\"RESOURCE_EXHAUSTED\",\"message\":\"cannot register another worker: "
            + "expected 2 (ps.cluster.worker-num), currently registered 2 (2 alive, 0 finished, 0 dead to take over)\"}";

    private final AtomicInteger attempts = new AtomicInteger();
    private volatile int fullAnswers;
    private final List<String> leaves = new java.util.concurrent.CopyOnWriteArrayList<>();
    private FakeScheduler server;
    private SchedulerSession session;

    @BeforeEach
    void startFakeScheduler() throws IOException {
        server = FakeScheduler.start("/api/v1/nodes", this::register);
        session = new SchedulerSession(server.client(), "127.0.0.1", Duration.ofSeconds(30),
                io.jvmps.common.time.MonotonicClock.SYSTEM);
    }

    @AfterEach
    void stop() {
        session.close();
        server.close();
    }

    private void register(HttpExchange exchange) throws IOException {
        if ("DELETE".equals(exchange.getRequestMethod())) {
            leaves.add(exchange.getRequestURI() + " " + exchange.getRequestHeaders().getFirst("X-PS-Node-Token"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
            return;
        }
        boolean full = attempts.incrementAndGet() <= fullAnswers;
        byte[] body = (full ? FULL : JSON.writeValueAsString(new RegisterResponse("worker-1-b", 1,
                new ClusterView(3, 1, 2, List.of()), "token-of-worker-1"))).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(full ? 409 : 200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Test
    void aWorkerWaitsForAFreeRankWhileTheJobIsFull() {
        fullAnswers = 3;
        RegisterResponse reg = session.register(8080, 0, Duration.ofSeconds(20), Duration.ofMillis(50));
        assertThat(reg.rank()).isEqualTo(1);
        assertThat(attempts).hasValue(4);
    }

    @Test
    void aWorkerGivesUpAtItsDeadlineSayingNoRankWasFree() {
        fullAnswers = Integer.MAX_VALUE;
        assertThatThrownBy(() -> session.register(8080, 0, Duration.ofMillis(400), Duration.ofMillis(50)))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("had no free worker rank within PT0.4S")
                .hasMessageContaining("0 dead to take over");
        assertThat(attempts.get()).isGreaterThan(2);
    }

    @Test
    void aWorkerThatFinishedLeavesPlainly() {
        session.register(8080, 0, Duration.ofSeconds(5), Duration.ofMillis(50));
        session.close();
        assertThat(leaves).containsExactly("/api/v1/nodes/worker-1-b token-of-worker-1");
    }

    @Test
    void aWorkerThatFailedLeavesSayingSoSoItsRankIsFreeAtOnce() {
        session.register(8080, 0, Duration.ofSeconds(5), Duration.ofMillis(50));
        session.markFailed();
        session.close();
        assertThat(leaves).containsExactly("/api/v1/nodes/worker-1-b?failed=true token-of-worker-1");
    }
}
