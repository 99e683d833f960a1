package io.jvmps.scheduler.web;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;
import java.util.function.ToIntFunction;

/** Read-only views: the cluster view and the scheduler's status summary. */
@RestController
@RequestMapping("/api/v1")
public class ClusterController {
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
