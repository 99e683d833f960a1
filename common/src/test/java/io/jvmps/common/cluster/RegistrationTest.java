package io.jvmps.common.cluster;

import com.sun.net.httpserver.HttpExchange;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.testing.FakeScheduler;
import io.jvmps.common.time.MonotonicClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one registration loop against a fake scheduler that answers from a script: passing errors are retried until
 * an answer, a refusal ends it at the first attempt, and the deadline ends it naming the scheduler and the last error.
 */
class RegistrationTest {
    private static final String OK = "{\"nodeId\":\"server-0-a\",\"rank\":0,\"view\":{\"epoch\":1,"
            + "\"expectedServers\":1,\"expectedWorkers\":1,\"nodes\":[]}}";
    private static final RegisterRequest SERVER = new RegisterRequest(NodeRole.SERVER, "127.0.0.1", 7001, 8001, null);

    /** Answers in order, each "status body"; the last one repeats. */
    private final ConcurrentLinkedQueue<String> script = new ConcurrentLinkedQueue<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private FakeScheduler scheduler;
    private SchedulerClient client;

    @BeforeEach
    void startFakeScheduler() throws IOException {
        scheduler = FakeScheduler.start("/api/v1/nodes", this::answer);
        client = scheduler.client();
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        attempts.incrementAndGet();
        String next = script.size() > 1 ? script.poll() : script.peek();
        int status = Integer.parseInt(next.substring(0, 3));
        byte[] body = next.substring(4).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", status == 500 ? "text/plain" : "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    @Test
    void passingErrorsAndAFullJobAreRetriedUntilTheSchedulerAnswers() {
        script.addAll(List.of("500 proxy error",
                "409 {\"code\":\"RESOURCE_EXHAUSTED\",\"message\":\"all 1 servers registered\"}",
                "503 {\"code\":\"NOT_READY\",\"message\":\"starting\"}", "200 " + OK));
        RegisterResponse answer = Registration.register(client, SERVER, Duration.ofSeconds(20), Duration.ofMillis(10),
                MonotonicClock.SYSTEM);
        assertThat(answer.nodeId()).isEqualTo("server-0-a");
        assertThat(attempts).hasValue(4);
    }

    @Test
    void aRefusalEndsRegistrationAtTheFirstAttempt() {
        script.add("400 {\"code\":\"INVALID_ARGUMENT\",\"message\":\"rsocketPort must be 1..65535\"}");
        assertThatThrownBy(() -> Registration.register(client, SERVER, Duration.ofSeconds(20), Duration.ofMillis(10),
                MonotonicClock.SYSTEM))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("rsocketPort must be 1..65535");
        assertThat(attempts).hasValue(1);
    }

    @Test
    void theDeadlineEndsItNamingTheSchedulerTheTimeoutAndTheLastError() {
        script.add("503 {\"code\":\"NOT_READY\",\"message\":\"still restoring\"}");
        assertThatThrownBy(() -> Registration.register(client, SERVER, Duration.ofMillis(200), Duration.ofMillis(20),
                MonotonicClock.SYSTEM))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("scheduler at " + client.base() + " did not answer within PT0.2S")
                .hasMessageContaining("still restoring");
        assertThat(attempts.get()).isGreaterThan(1);
    }
}
