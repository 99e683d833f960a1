package io.jvmps.server.cluster;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.Heartbeats;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.Registration;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;
import io.jvmps.common.protocol.RegisterResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * Registers this server with the scheduler once both its ports are known, retrying every
 * {@code retry} until {@code timeout} passes ({@link Registration}; then the process exits 1, or 2 when the
 * scheduler refused it), then heartbeats
 * every {@code heartbeatInterval} on a daemon thread and leaves on {@link #close()}. A scheduler
 * that forgot this node (heartbeat answered UNKNOWN_KEY) gets a re-registration with the previous id.
 * Thread-safe: all scheduler calls run on one daemon thread.
 */
public final class SchedulerRegistrar implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SchedulerRegistrar.class);

    /**
     * Timing of registration and heartbeats.
     *
     * @param timeout           give up registering after this long
     * @param retry             pause between registration attempts
     * @param heartbeatInterval pause between heartbeats
     */
    public record Timing(Duration timeout, Duration retry, Duration heartbeatInterval) {
    }

    private final SchedulerClient client;
    private final ServerIdentity identity;
    private final String host;
    private final Timing timing;
    private final MonotonicClock clock;
    private final ExitAction exit;
    private final java.util.function.Consumer<ClusterView> views;
    private final ScheduledExecutorService executor;
    private final Heartbeats heartbeats;
    private volatile int rsocketPort;
    private volatile int httpPort;

    /**
     * @param client   scheduler REST client
     * @param identity receives rank and node id
     * @param host     host advertised to others ({@code ps.node.host})
     * @param timing   timeouts and intervals
     * @param clock    time source for the registration deadline
     * @param exit     how to end the process when registration fails
     * @param views    told every cluster view the scheduler answers (registration and each heartbeat)
     */
    public SchedulerRegistrar(SchedulerClient client, ServerIdentity identity, String host, Timing timing, MonotonicClock clock,
                              ExitAction exit, java.util.function.Consumer<ClusterView> views) {
        this(client, identity, host, timing, clock, exit, views, () -> null);
    }

    /**
     * @param vitals what each heartbeat reports about this server (null: nothing), for the dashboard
     * @see #SchedulerRegistrar(SchedulerClient, ServerIdentity, String, Timing, MonotonicClock, ExitAction,
     *      java.util.function.Consumer)
     */
    public SchedulerRegistrar(SchedulerClient client, ServerIdentity identity, String host, Timing timing, MonotonicClock clock,
                              ExitAction exit, java.util.function.Consumer<ClusterView> views,
                              java.util.function.Supplier<io.jvmps.common.protocol.ServerVitals> vitals) {
        this.views = views;
        this.client = client;
        this.identity = identity;
        this.host = host;
        this.timing = timing;
        this.clock = clock;
        this.exit = exit;
        ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ps-scheduler-client");
            t.setDaemon(true);
            return t;
        });
        pool.setRemoveOnCancelPolicy(true);
        this.executor = pool;
        this.heartbeats = new Heartbeats(client, pool, timing.heartbeatInterval(), views, vitals);
    }

    /**
     * Starts registering in the background.
     *
     * @param rsocket this server's bound RSocket port
     * @param http    this server's bound HTTP port
     */
    public void start(int rsocket, int http) {
        this.rsocketPort = rsocket;
        this.httpPort = http;
        executor.execute(() -> attempt(null));
    }

    /** Stops heartbeats and tells the scheduler this node left. */
    @Override
    public void close() {
        executor.shutdownNow();
        String nodeId = identity.nodeId();
        if (nodeId != null) {
            try {
                client.leave(nodeId);
                log.info("Server {} left the cluster", nodeId);
            } catch (RuntimeException e) {
                log.warn("Could not tell the scheduler at {} that {} leaves: {}", client.base(), nodeId, e.getMessage());
            }
        }
    }

    private void attempt(String previousNodeId) {
        RegisterResponse answer;
        try {
            answer = Registration.register(client, new RegisterRequest(NodeRole.SERVER, host, rsocketPort, httpPort,
                    previousNodeId, previousNodeId == null ? null : identity.rank()), timing.timeout(), timing.retry(),
                    clock);
        } catch (PsException e) {
            if (executor.isShutdown()) {
                return;                                     // closing: nothing to register for any more
            }
            if (e.code() == ErrorCode.TIMEOUT) {
                exit.exit(1, "Server could not register with the scheduler at " + client.base() + " within "
                        + timing.timeout() + " (ps.server.register-timeout); last error: " + e.getMessage());
            } else {
                exit.exit(2, "Scheduler at " + client.base() + " refused this server: " + e.getMessage());
            }
            return;
        }
        if (previousNodeId != null && identity.rank() >= 0 && answer.rank() != identity.rank()) {
            log.error("The scheduler gave this server rank {} instead of its rank {}: the job's data is now "
                    + "placed wrongly; restart the job", answer.rank(), identity.rank());
        }
        identity.assignFirst(answer.rank(), answer.nodeId(), answer.jobStarted());
        views.accept(answer.view());
        if (answer.jobFailure() != null) {
            log.error("The job has FAILED ({}); this server holds nothing for it. Start the job again (stop "
                    + "every node; with checkpoints it resumes from the newest one)", answer.jobFailure());
        }
        log.info("Server rank {} registered as {}, serving RSocket on {}:{}", answer.rank(), answer.nodeId(), host,
                rsocketPort);
        heartbeats.start(identity::nodeId, this::forgotten);
    }

    /** The scheduler forgot this server (it restarted without its state): register again under the old id. */
    private void forgotten(String nodeId) {
        heartbeats.stop();
        executor.execute(() -> attempt(nodeId));
    }
}
