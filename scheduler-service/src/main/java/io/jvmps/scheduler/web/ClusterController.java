package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/** Read-only views: the cluster view and the scheduler's status summary. */
@RestController
@RequestMapping("/api/v1")
public class ClusterController {
    /** Seconds between keep-alive comments on the cluster view stream. */
    public static final int KEEP_ALIVE_SECONDS = 10;

    private final NodeRegistry registry;
    private final JobTracker job;

    /**
     * @param registry the membership table
     * @param job      the job tracker
     */
    public ClusterController(NodeRegistry registry, JobTracker job) {
        this.registry = registry;
        this.job = job;
    }

    /** {@code GET /api/v1/cluster}: the current cluster view. */
    @GetMapping("/cluster")
    public ClusterView cluster() {
        return registry.view();
    }

    /**
     * {@code GET /api/v1/cluster/stream}: server-sent events named {@code view}, each a cluster view, the
     * current one first and then one per new epoch (in increasing epoch order), with a
     * {@code keep-alive} comment every {@value #KEEP_ALIVE_SECONDS} s so that a node can tell a quiet
     * scheduler from a lost connection.
     */
    @GetMapping(path = "/cluster/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<ClusterView>> clusterStream() {
        Flux<ServerSentEvent<ClusterView>> views = Flux.defer(() -> {
            AtomicLong last = new AtomicLong(Long.MIN_VALUE);
            return Flux.concat(Mono.fromSupplier(registry::view), registry.changes())
                    .filter(v -> last.getAndAccumulate(v.epoch(), Math::max) < v.epoch())
                    .map(v -> ServerSentEvent.builder(v).event("view").id(Long.toString(v.epoch())).build());
        });
        Flux<ServerSentEvent<ClusterView>> keepAlive = Flux.interval(Duration.ofSeconds(KEEP_ALIVE_SECONDS))
                .map(tick -> ServerSentEvent.<ClusterView>builder().comment("keep-alive").build());
        return Flux.merge(views, keepAlive.onBackpressureDrop());
    }

    /** {@code GET /api/v1/status}: counts, epoch and job state. */
    @GetMapping("/status")
    public SchedulerStatus status() {
        ClusterView view = registry.view();
        return new SchedulerStatus("scheduler", view.epoch(),
                perRole(registry::registered),
                perRole(role -> registry.count(role, NodeState.ALIVE)),
                perRole(registry::expected),
                view.complete(), job.state().name());
    }

    private static Map<String, Integer> perRole(ToIntFunction<NodeRole> count) {
        return Map.of(NodeRole.SERVER.label(), count.applyAsInt(NodeRole.SERVER),
                NodeRole.WORKER.label(), count.applyAsInt(NodeRole.WORKER));
    }
}
