package io.jvmps.server.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jvmps.common.cluster.SchedulerClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Registration against a fake scheduler (JDK HTTP server): retries, heartbeats, re-registration, leave, give-up. */
class SchedulerRegistrarTest {
    private static final String VIEW = "{\"epoch\":1,\"expectedServers\":1,\"expectedWorkers\":1,\"nodes\":[]}";
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private final AtomicInteger heartbeats = new AtomicInteger();
    private HttpServer scheduler;
    private SchedulerRegistrar registrar;

    @AfterEach
    void stop() {
        if (registrar != null) {
            registrar.close();
        }
        if (scheduler != null) {
            scheduler.stop(0);
        }
    }

    private void startScheduler() throws IOException {
        scheduler = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        scheduler.createContext("/api/v1/nodes", this::handle);
        scheduler.start();
    }

    private void handle(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        calls.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath() + " " + body);
        switch (ex.getRequestMethod()) {
            case "POST" -> {
                int n = registrations.incrementAndGet();
                if (n == 1) {
                    answer(ex, 503, "{\"code\":\"NOT_READY\",\"message\":\"starting up\"}");
                } else {
                    answer(ex, 200, "{\"nodeId\":\"server-3-n" + n + "\",\"rank\":3,\"view\":" + VIEW + "}");
                }
            }
            case "PUT" -> {
                if (heartbeats.incrementAndGet() == 2) {
                    answer(ex, 404, "{\"code\":\"UNKNOWN_KEY\",\"message\":\"who are you\"}");
                } else {
                    answer(ex, 200, VIEW);
                }
            }
            default -> {
                ex.sendResponseHeaders(204, -1);
                ex.close();
            }
        }
    }

    private static void answer(HttpExchange ex, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static void await(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 10 s").isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    @Test
    void retriesRegistersHeartbeatsReRegistersAndLeaves() throws IOException {
        startScheduler();
        ServerIdentity identity = ServerIdentity.unregistered();
        CompletableFuture<String> exit = new CompletableFuture<>();
        registrar = new SchedulerRegistrar(new SchedulerClient("127.0.0.1", scheduler.getAddress().getPort(),
                Duration.ofSeconds(2), io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789")), identity, "10.0.0.7",
                new SchedulerRegistrar.Timing(Duration.ofSeconds(30), Duration.ofMillis(20), Duration.ofMillis(20)),
                io.jvmps.common.time.MonotonicClock.SYSTEM, (code, message) -> exit.complete(code + " " + message), view -> { });

        registrar.start(7001, 8001);
        await(() -> identity.assigned());
        assertThat(identity.rank()).isEqualTo(3);
        assertThat(calls.get(1)).startsWith("POST /api/v1/nodes ").contains("\"role\":\"SERVER\"")
                .contains("\"host\":\"10.0.0.7\"").contains("\"rsocketPort\":7001").contains("\"httpPort\":8001");

        // the second heartbeat answers UNKNOWN_KEY: the server registers again with its previous id
        await(() -> registrations.get() >= 3 && heartbeats.get() >= 3);
        assertThat(calls).anySatisfy(c -> assertThat(c).startsWith("POST").contains("\"previousNodeId\":\"server-3-n2\""));
        assertThat(identity.nodeId()).isEqualTo("server-3-n3");

        registrar.close();
        assertThat(calls.get(calls.size() - 1)).startsWith("DELETE /api/v1/nodes/server-3-n3");
        registrar = null;
        assertThat(exit).isNotDone();
    }

    @Test
    void givesUpAfterTheDeadlineWithANonZeroExit() throws IOException {
        startScheduler();
        int deadPort = scheduler.getAddress().getPort();
        scheduler.stop(0);
        scheduler = null;
        CompletableFuture<String> exit = new CompletableFuture<>();
        registrar = new SchedulerRegistrar(new SchedulerClient("127.0.0.1", deadPort, Duration.ofMillis(500),
                io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789")),
                ServerIdentity.unregistered(), "127.0.0.1",
                new SchedulerRegistrar.Timing(Duration.ofMillis(200), Duration.ofMillis(20), Duration.ofSeconds(1)),
                io.jvmps.common.time.MonotonicClock.SYSTEM, (code, message) -> exit.complete(code + " " + message), view -> { });

        registrar.start(7001, 8001);
        String result = exit.orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(result).startsWith("1 Server could not register with the scheduler at http://127.0.0.1:" + deadPort)
                .contains("ps.server.register-timeout");
    }
}
