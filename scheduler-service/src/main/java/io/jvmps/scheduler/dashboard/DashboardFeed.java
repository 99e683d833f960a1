package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.protocol.JobStatus;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

/**
 * Feeds the dashboard: records cluster events (once a second through {@link DashboardEventLoop}, whether
 * or not anyone watches) and builds {@link DashboardSnapshot}s on demand and as a stream with one
 * snapshot per second.
 */
@Component
public class DashboardFeed {
    /** How often events are recorded and the stream sends a snapshot. */
    static final Duration PERIOD = Duration.ofSeconds(1);

    private final NodeRegistry registry;
    private final JobTracker job;
    private final Clock clock;
    private final ClusterEvents events = new ClusterEvents(50);
    private final ServerVitalsBoard servers;

    /**
     * @param registry the membership table
     * @param job      progress, history and results
     * @param clock    timestamps
     * @param servers  what the servers report with their heartbeats
     */
    public DashboardFeed(NodeRegistry registry, JobTracker job, Clock clock, ServerVitalsBoard servers) {
        this.registry = registry;
        this.job = job;
        this.clock = clock;
        this.servers = servers;
    }

    /** @return the current snapshot (also records any new events first) */
    public DashboardSnapshot snapshot() {
        ClusterView view = registry.view();
        JobStatus status = job.status();
        record(view, status);
        return new DashboardSnapshot(clock.millis(), view, status, job.history(), events.recent(), servers.rows(view));
    }

    /** @return a snapshot now and then every {@link #PERIOD}, until the subscriber cancels */
    public Flux<DashboardSnapshot> stream() {
        return Flux.interval(Duration.ZERO, PERIOD).onBackpressureDrop().map(tick -> snapshot());
    }

    /** Records new cluster events; {@link DashboardEventLoop} calls it every {@link #PERIOD}. */
    void observe() {
        record(registry.view(), job.status());
    }

    private void record(ClusterView view, JobStatus status) {
        String detail = !"FINISHED".equals(status.state()) ? ""
                : JobStatus.REGRESSION.equals(status.task()) ? String.format(Locale.ROOT,
                "test RMSE %.4f, MAE %.4f (%d targets)", status.rmse(), status.mae(), status.total())
                : JobStatus.BINARY.equals(status.task()) ? String.format(Locale.ROOT,
                "test AUC %.4f, log loss %.4f, accuracy %.2f%% (%d examples)", status.auc(), status.logLoss(),
                status.accuracy() * 100, status.total())
                : String.format(Locale.ROOT, "test accuracy %.2f%% (%d/%d)", status.accuracy() * 100, status.correct(),
                status.total());
        events.observe(view, status.state(), detail, clock.millis());
    }
}
