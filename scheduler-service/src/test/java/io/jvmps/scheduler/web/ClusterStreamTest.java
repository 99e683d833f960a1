package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.ClusterViewWatcher;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.cluster.SchedulerClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/v1/cluster/stream} followed by the common {@link ClusterViewWatcher}: a registration
 * and a node marked DEAD by the failure detector reach the watcher as they happen, in epoch order,
 * without the watcher sending any heartbeat.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1", "ps.scheduler.heartbeat-timeout=1s",
        "ps.scheduler.failure-check-interval=100ms"})
@DirtiesContext
class ClusterStreamTest {
    @LocalServerPort
    private int port;

    @Test
    void aWatcherLearnsOfARegistrationAndOfADeathAsTheyHappen() {
        SchedulerClient client = new SchedulerClient("127.0.0.1", port, Duration.ofSeconds(5),
                io.jvmps.common.security.ClusterSecret.of("test-cluster-secret-0123456789"));
        List<ClusterView> views = new CopyOnWriteArrayList<>();
        try (ClusterViewWatcher watcher = new ClusterViewWatcher(client, views::add, Duration.ofSeconds(30),
                Duration.ofMillis(200), Clock.systemUTC())) {
            watcher.start();
            await(views, v -> v.epoch() == 0, "the current view first");
            String worker = client.register(new io.jvmps.common.protocol.RegisterRequest(
                    io.jvmps.common.cluster.NodeRole.WORKER, "127.0.0.1", 0, 8002, null)).nodeId();
            ClusterView registered = await(views, v -> v.workers().size() == 1, "the registration");
            assertThat(registered.epoch()).isEqualTo(1);
            Instant silentSince = Instant.now();
            ClusterView dead = await(views, v -> v.workers().stream().anyMatch(n -> n.state() == NodeState.DEAD),
                    "the worker marked DEAD");
            assertThat(dead.workers()).singleElement().matches(n -> n.nodeId().equals(worker));
            assertThat(Duration.between(silentSince, Instant.now())).as("1 s timeout, pushed at once")
                    .isLessThan(Duration.ofSeconds(5));
            assertThat(views).extracting(ClusterView::epoch).isSorted().doesNotHaveDuplicates();
        }
    }

    private static ClusterView await(List<ClusterView> views, Predicate<ClusterView> wanted, String what) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            Optional<ClusterView> hit = views.stream().filter(wanted).findFirst();
            if (hit.isPresent()) {
                return hit.get();
            }
            LockSupport.parkNanos(20_000_000L);
        }
        throw new AssertionError("no view showing " + what + " within 10 s; got " + views);
    }
}
