package io.jvmps.common.cluster;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerVitals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A registered node's heartbeats to the scheduler, for servers and workers alike: every interval, on the node's
 * executor, one {@code PUT /api/v1/nodes/{id}/heartbeat} carrying what the node reports about itself (a server's
 * {@link ServerVitals}; a worker sends none), and the cluster view it answers handed on. When the scheduler
 * answers {@code UNKNOWN_KEY} (it forgot the node: restarted without its state), the node's {@code forgotten}
 * callback decides what to do (register again); any other failure is logged and the next heartbeat tries again.
 * Nothing a heartbeat meets stops the next one. Thread-safe.
 */
public final class Heartbeats {
    private static final Logger log = LoggerFactory.getLogger(Heartbeats.class);

    private final SchedulerClient client;
    private final ScheduledExecutorService executor;
    private final Duration interval;
    private final Consumer<ClusterView> views;
    private final Supplier<ServerVitals> report;
    private ScheduledFuture<?> beats;

    /**
     * @param client   the scheduler's REST client
     * @param executor runs the heartbeats (the node's scheduler thread)
     * @param interval pause between two heartbeats ({@code ps.node.heartbeat-interval})
     * @param views    told every cluster view a heartbeat answers
     * @param report   what each heartbeat reports (null from it: nothing)
     */
    public Heartbeats(SchedulerClient client, ScheduledExecutorService executor, Duration interval,
                      Consumer<ClusterView> views, Supplier<ServerVitals> report) {
        this.client = client;
        this.executor = executor;
        this.interval = interval;
        this.views = views;
        this.report = report;
    }

    /**
     * Starts (or restarts) the heartbeats, the first after one interval.
     *
     * @param nodeId    this node's id, read at each heartbeat (a re-registration may change it)
     * @param forgotten called with the node id when the scheduler no longer knows it, on the heartbeat thread
     */
    public synchronized void start(Supplier<String> nodeId, Consumer<String> forgotten) {
        stop();
        long every = interval.toMillis();
        beats = executor.scheduleWithFixedDelay(() -> beat(nodeId.get(), forgotten), every, every,
                TimeUnit.MILLISECONDS);
    }

    /** Stops the heartbeats; one under way finishes. */
    public synchronized void stop() {
        if (beats != null) {
            beats.cancel(false);
            beats = null;
        }
    }

    private void beat(String nodeId, Consumer<String> forgotten) {
        try {
            views.accept(client.heartbeat(nodeId, report.get()));
        } catch (PsException e) {
            if (executor.isShutdown()) {
                return;
            }
            if (e.code() == ErrorCode.UNKNOWN_KEY) {
                log.warn("The scheduler at {} forgot {} ({}); registering again", client.base(), nodeId, e.getMessage());
                forgotten.accept(nodeId);
                return;
            }
            log.warn("Heartbeat of {} to {} failed: {}", nodeId, client.base(), e.getMessage());
        } catch (RuntimeException e) { // a task that throws is never run again: keep beating
            log.warn("Heartbeat of {} to {} failed: {}", nodeId, client.base(), e.toString());
        }
    }
}
