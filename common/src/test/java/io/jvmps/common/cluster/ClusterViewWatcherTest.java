package io.jvmps.common.cluster;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watcher against a fake scheduler over real HTTP: the first stream sends a view and then falls
 * silent (a half-open connection), the second sends a view and ends; the watcher must deliver both views,
 * drop the silent stream after its idle limit, reconnect after each, and stop when closed.
 */
class ClusterViewWatcherTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final AtomicInteger connections = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> secrets = new CopyOnWriteArrayList<>();
    private ExecutorService handlers;
    private HttpServer server;

    @BeforeEach
    void startFakeScheduler() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/api/v1/cluster/stream", this::stream);
        server.start();
    }

    @AfterEach
    void stopFakeScheduler() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private void stream(HttpExchange exchange) throws IOException {
        int n = connections.incrementAndGet();
        secrets.add(exchange.getRequestHeaders().getFirst("Authorization"));
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        String view = JSON.writeValueAsString(new ClusterView(n, 1, 2, List.of()));
        out.write((":keep-alive\n\nevent:view\nid:" + n + "\ndata:" + view + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        if (n == 1) {
            try {
                release.await(30, TimeUnit.SECONDS); // silent, connection open
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        exchange.close();
    }

    @Test
    void deliversViewsDropsASilentStreamAndReconnectsUntilClosed() {
        SchedulerClient client = new SchedulerClient("127.0.0.1", server.getAddress().getPort(), Duration.ofSeconds(5),
                io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789"));
        List<Long> epochs = new CopyOnWriteArrayList<>();
        ClusterViewWatcher watcher = new ClusterViewWatcher(client, v -> epochs.add(v.epoch()),
                Duration.ofMillis(600), Duration.ofMillis(100), Clock.systemUTC());
        try {
            watcher.start();
            assertThat(until(() -> epochs.contains(1L), Duration.ofSeconds(10))).as("first view").isTrue();
            assertThat(until(() -> epochs.contains(2L) && connections.get() >= 3, Duration.ofSeconds(15)))
                    .as("the silent stream dropped after 600 ms, the next read, and the ended one reopened: %s, %d "
                            + "connections", epochs, connections.get()).isTrue();
            // a copy: the watcher keeps appending (a subList of a list that grows throws ConcurrentModification)
            assertThat(List.copyOf(epochs).subList(0, 2)).containsExactly(1L, 2L);
            assertThat(secrets).allMatch(s -> s.equals("Bearer test-cluster-secret-0123456789"));
        } finally {
            watcher.close();
        }
        int after = connections.get();
        LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        assertThat(connections.get()).as("no reconnect after close").isLessThanOrEqualTo(after + 1);
    }

    private static boolean until(BooleanSupplier condition, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (condition.getAsBoolean()) {
                return true;
            }
            LockSupport.parkNanos(20_000_000L);
        }
        return condition.getAsBoolean();
    }
}
