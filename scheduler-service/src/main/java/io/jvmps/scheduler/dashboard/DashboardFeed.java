package io.jvmps.scheduler.dashboard;

import io.jvmps.common.protocol.JobStatus;
import io.jvmps.scheduler.progress.JobTracker;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Feeds the dashboard: once a second (whether or not anyone watches) it records cluster events, and it
 * builds {@link DashboardSnapshot}s on demand and as a stream with one snapshot per second.
 */
@Component
public class DashboardFeed implements SmartLifecycle {
    /** How often events are recorded and the stream sends a snapshot. */
    static final Duration PERIOD = Duration.ofSeconds(1);
    private static final Logger log = LoggerFactory.getLogger(DashboardFeed.class);

    private final NodeRegistry registry;
    private final JobTracker job;
    private final Clock clock;
    private final ClusterEvents events = new ClusterEvents(50);
    private ScheduledExecutorService executor;

    /**
     * @param registry the membership table
     * @param job      progress, history and results
     * @param clock    timestamps
     */
    public DashboardFeed(NodeRegistry registry, JobTracker job, Clock clock) {
        this.registry = registry;
        this.job = job;
        this.clock = clock;
    }

    /** @return the current snapshot (also records any new events first) */
    public DashboardSnapshot snapshot() {
        observe();
        return new DashboardSnapshot(clock.millis(), registry.view(), job.status(), job.history(), events.recent());
    }

    /** @return a snapshot now and then every {@link #PERIOD}, until the subscriber cancels */
    public Flux<DashboardSnapshot> stream() {
        return Flux.interval(Duration.ZERO, PERIOD).onBackpressureDrop().map(tick -> snapshot());
    }

    private void observe() {
        JobStatus status = job.status();
        String detail = "FINISHED".equals(status.state()) ? String.format(Locale.ROOT, "test accuracy %.2f%% (%d/%d)",
                status.accuracy() * 100, status.correct(), status.total()) : "";
        events.observe(registry.view(), status.state(), detail, clock.millis());
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ps-dashboard-events");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                observe();
            } catch (RuntimeException e) {
                log.warn("Dashboard event pass failed: {}", e.toString());
            }
        }, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
