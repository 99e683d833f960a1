package io.jvmps.client.control;

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

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A worker's membership in a job: registers with the scheduler (retrying until a deadline), keeps a
 * heartbeat going on a daemon thread, re-registers with its old id and rank if the scheduler forgot it
 * (it restarted), reports the final result, and leaves on close (FINISHED, or DEAD after
 * {@link #markFailed}). Thread-safe.
 */
public class SchedulerSession implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SchedulerSession.class);

    private final SchedulerClient client;
    private final String host;
    private final MonotonicClock clock;
    private final ScheduledExecutorService heartbeatThread;
    private final Heartbeats heartbeats;
    private volatile RegisterResponse registration;
    private volatile boolean failed;
    private volatile ClusterView latestView;
    private volatile int httpPort;
    private volatile int rsocketPort;
    private volatile java.util.function.Consumer<RegisterResponse> registered = reg -> { };

    /**
     * @param client            the scheduler's REST client
     * @param host              the host name other nodes reach this worker at (for the cluster view)
     * @param heartbeatInterval pause between heartbeats (the scheduler marks a node DEAD after its
     *                          {@code ps.cluster.heartbeat-timeout} without one)
     * @param clock             measures the registration and result deadlines
     */
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    public SchedulerSession(SchedulerClient client, String host, Duration heartbeatInterval, MonotonicClock clock) {
        this.client = client;
        this.host = host;
        this.clock = clock;
        this.heartbeatThread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heartbeat");
            t.setDaemon(true);
            return t;
        });
        this.heartbeats = new Heartbeats(client, heartbeatThread, heartbeatInterval, view -> latestView = view,
                () -> null);
    }

    /** @return the client this session talks through */
    public SchedulerClient client() {
        return client;
    }

    /**
     * Registers, retrying every {@code retryInterval} while the scheduler is unreachable or the job has no free
     * worker rank ({@link Registration}).
     *
     * @param httpPort    this worker's HTTP port, for the cluster view
     * @param rsocketPort this worker's RSocket port (its AllReduce endpoint), for the cluster view
     * @param timeout     overall deadline
     * @param retryInterval pause between attempts
     * @return the registration
     * @throws JobFailedException when the job has already FAILED: the caller must not train
     */
    public RegisterResponse register(int httpPort, int rsocketPort, Duration timeout, Duration retryInterval) {
        this.httpPort = httpPort;
        this.rsocketPort = rsocketPort;
        registration = Registration.register(client, new RegisterRequest(NodeRole.WORKER, host, rsocketPort, httpPort,
                null), timeout, retryInterval, clock);
        latestView = registration.view();
        log.info("Worker registered as {} with rank {} at scheduler {}", registration.nodeId(), registration.rank(),
                client.base());
        if (registration.jobFailure() != null) {
            throw new JobFailedException(registration.jobFailure());
        }
        heartbeats.start(() -> registration.nodeId(), this::forgotten);
        registered.accept(registration);
        return registration;
    }

    /**
     * Sets what hears of this session's registration (a service's status page showing its rank while it waits for
     * the servers); it runs on the registering thread, once the job has accepted this worker. Replaces the last one.
     */
    public void onRegistered(java.util.function.Consumer<RegisterResponse> listener) {
        this.registered = java.util.Objects.requireNonNull(listener, "listener");
    }

    /**
     * @return {@code settings} speaking for this worker as now registered (its node id and token in every
     *         connection's SETUP), or unchanged before registration or against a scheduler that issues no tokens
     */
    public io.jvmps.client.transport.ConnectionSettings identified(io.jvmps.client.transport.ConnectionSettings settings) {
        RegisterResponse reg = registration;
        return reg == null || reg.nodeToken() == null ? settings : settings.identifiedAs(reg.nodeId(), reg.nodeToken());
    }

    /** @return this worker's registration; null before {@link #register} */
    public RegisterResponse registration() {
        return registration;
    }

    /** @return the freshest cluster view seen (from registration or the last heartbeat) */
    public ClusterView latestView() {
        return latestView;
    }

    /** The scheduler forgot this worker (it restarted without its state): register again with the old id and rank. */
    private void forgotten(String nodeId) {
        RegisterResponse reg = registration;
        try {
            registration = client.register(new RegisterRequest(NodeRole.WORKER, host, rsocketPort, httpPort,
                    reg.nodeId(), reg.rank()));
            latestView = registration.view();
        } catch (PsException again) {
            log.warn("re-registration failed: {}", again.getMessage()); // the next heartbeat tries again
        }
    }

    /**
     * Reports the final result, retrying while the scheduler is unreachable or does not know this node
     * yet (it restarted and the next heartbeat registers again).
     *
     * @param timeout  give up after this long
     * @param interval pause between attempts
     * @throws PsException TIMEOUT naming the scheduler when it never took the result
     */
    public void reportResult(io.jvmps.common.protocol.ResultReport report, Duration timeout, Duration interval) {
        retrying("take this worker's result", () -> {
            client.reportResult(report);
            return null;
        }, timeout, interval);
    }

    /**
     * Reports the finished data partition and leases the next one (dynamic sharding), retrying while the
     * scheduler is unreachable or does not know this node yet (it is restarting). A retried request whose first
     * answer was lost gets the lease the scheduler already gave this worker, so no partition is leased twice.
     *
     * @param timeout  give up after this long
     * @param interval pause between attempts
     * @throws PsException TIMEOUT naming the scheduler when it never answered
     */
    public io.jvmps.common.protocol.PartitionLease nextPartition(io.jvmps.common.protocol.PartitionRequest request,
                                                                 Duration timeout, Duration interval) {
        return retrying("lease a data partition", () -> client.nextPartition(request), timeout, interval);
    }

    /** Calls the scheduler until it answers, while it is unreachable or does not know this node, up to the timeout. */
    private <T> T retrying(String what, java.util.function.Supplier<T> call, Duration timeout, Duration interval) {
        Deadline deadline = Deadline.after(timeout, clock);
        while (true) {
            try {
                return call.get();
            } catch (PsException e) {
                boolean retryable = e.code() == ErrorCode.NOT_READY || e.code() == ErrorCode.UNKNOWN_KEY;
                if (!retryable) {
                    throw e;
                }
                if (deadline.passed() || Thread.currentThread().isInterrupted()) {
                    throw new PsException(ErrorCode.TIMEOUT, "the scheduler at " + client.base() + " did not "
                            + what + " within " + timeout + ": " + e.detail());
                }
                log.warn("the scheduler could not {} yet ({}); retrying in {} ms", what, e.getMessage(),
                        interval.toMillis());
                deadline.pause(interval);
            }
        }
    }

    /**
     * Tells the scheduler that the job cannot go on (best effort: a scheduler that cannot be reached is logged);
     * the first such report marks the job FAILED with {@code reason}, and later workers do not start training.
     *
     * @param reason what was lost, for operators
     */
    public void failJob(String reason) {
        RegisterResponse reg = registration;
        if (reg == null) {
            return;
        }
        try {
            client.reportJobFailure(new io.jvmps.common.protocol.JobFailure(reg.nodeId(),
                    reason.length() > 2000 ? reason.substring(0, 2000) : reason));
        } catch (RuntimeException e) {
            log.warn("Could not tell the scheduler at {} that the job cannot go on: {}", client.base(), e.getMessage());
        }
    }

    /**
     * Makes {@link #close} tell the scheduler that this worker failed: it is marked DEAD instead of
     * FINISHED, so that a restarted worker takes its rank at once.
     */
    public void markFailed() {
        failed = true;
    }

    /** Stops the heartbeats and leaves the job; a second call does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        heartbeatThread.shutdownNow();
        RegisterResponse reg = registration;
        if (reg != null) {
            try {
                if (failed) {
                    client.leaveFailed(reg.nodeId());
                } else {
                    client.leave(reg.nodeId());
                }
            } catch (RuntimeException e) {
                log.debug("leave failed: {}", e.getMessage());
            }
        }
    }
}
