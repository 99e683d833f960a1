package io.jvmps.client.control;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ConnectionHolder;
import io.jvmps.client.transport.ServerConnections;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.Deadline;
import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a worker does after losing a server: wait until the scheduler lists every server alive and
 * reachable again (a replacement takes the lost rank), declare the model to them (a restarted server
 * restores its checkpoint there; worker 0 also re-seeds slices a server without one lacks), learn the
 * newest complete checkpoint, and roll every server back to it. Every worker of the job does the same
 * and resumes where the checkpoint has its schedule (SYNC: the checkpoint's step; ASYNC, SSP, GEO: its
 * rank's clock in the checkpoint, see {@link StepJoiner#scheduleStep}), so nobody trains on parameters the
 * servers no longer hold. Retries with backoff until the recovery timeout ({@code ps.worker.servers.recovery-timeout}
 * in the stock worker); fails at once when
 * there is no checkpoint ({@code STATE_LOST}: the job cannot go on). Not thread-safe: the training thread uses it.
 */
public final class ServerRecovery {
    private static final Logger log = LoggerFactory.getLogger(ServerRecovery.class);
    private static final Set<ErrorCode> TRIGGERS = EnumSet.of(ErrorCode.NOT_READY, ErrorCode.ROLLED_BACK,
            ErrorCode.WRONG_STEP);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    /**
     * Where training continues: new connections, a client over them, the checkpoint the servers rolled
     * back to, and the step this worker's schedule resumes at.
     */
    public record Resumed(ServerConnections connections, DenseClient client, long checkpointStep, long step) {
    }

    /** Where this worker's schedule goes on once the servers are back at a checkpoint, as the servers say. */
    @FunctionalInterface
    public interface ResumePoint {
        /**
         * Asks the servers (a join) where this worker's schedule goes on: its clock there in ASYNC, SSP and
         * GEO; in SYNC the step the servers accept it at.
         *
         * @param control        the control client over the recovered connections
         * @param checkpointStep the step of the checkpoint the servers rolled back to
         */
        long step(ControlClient control, long checkpointStep);
    }

    private final Function<Duration, ServerConnections> connect;
    private final Function<ServerConnections, DenseClient> clients;
    private final Supplier<INDArray[]> initialValues;
    private final int rank;
    private final Duration timeout;
    private final MonotonicClock clock;
    private final java.util.function.Consumer<ServerConnections> declareMore;
    private final ResumePoint resumePoint;
    private final ConsistencyMode mode;
    private int recoveries;
    /** Whether this worker has joined the job's steps; a recovery's resume point joins it. Training thread only. */
    private boolean joined;
    /** The job's length the recovery declares again, so a replacement server sizes its schedule as the others. */
    private long jobUpdates;

    /**
     * @param connect       waits (up to the given time) until every server is alive and reachable
     * @param clients       makes a client over connections
     * @param initialValues the PS parameters' seeded initial values (worker 0 re-seeds missing slices)
     * @param timeout       {@code ps.worker.servers.recovery-timeout}; zero = never recover
     * @param mode          the servers' consistency mode: where a worker resumes and whether it keeps a rollback
     *                      already done for its server set depend on it (see {@link #resume})
     * @param resumePoint   asks the servers where this worker's schedule goes on
     */
    public ServerRecovery(Function<Duration, ServerConnections> connect, Function<ServerConnections, DenseClient> clients,
                   Supplier<INDArray[]> initialValues, int rank, Duration timeout, MonotonicClock clock, ConsistencyMode mode,
                   ResumePoint resumePoint) {
        this(connect, clients, initialValues, rank, timeout, clock, mode, resumePoint, connections -> { });
    }

    /**
     * Same, with {@code declareMore} run on the new connections right after the dense model is declared
     * and before the rollback (the CTR job declares its sparse tables there, so a restarted server has
     * them when it rolls back).
     */
    public ServerRecovery(Function<Duration, ServerConnections> connect, Function<ServerConnections, DenseClient> clients,
                   Supplier<INDArray[]> initialValues, int rank, Duration timeout, MonotonicClock clock, ConsistencyMode mode,
                   ResumePoint resumePoint, java.util.function.Consumer<ServerConnections> declareMore) {
        this.resumePoint = resumePoint;
        this.mode = mode;
        this.declareMore = declareMore;
        this.connect = connect;
        this.clients = clients;
        this.initialValues = initialValues;
        this.rank = rank;
        this.timeout = timeout;
        this.clock = clock;
    }

    /**
     * Sets the job's length a recovery declares to the servers again ({@link ControlClient#declareDense(List, long)}),
     * so that a replacement server sizes its learning-rate schedule as the lost one did. Training thread only.
     *
     * @return this recovery
     */
    public ServerRecovery declaringJobUpdates(long updates) {
        this.jobUpdates = updates;
        return this;
    }

    /** Records that this worker has joined the job's steps (its first join succeeded). */
    public void joined() {
        joined = true;
    }

    /**
     * Closes the lost connections, recovers, holds the new connections in {@code held} and logs the step
     * training resumes at; the worker has joined afterwards.
     * <p>
     * A SYNC worker that had joined rolls every server back to the newest checkpoint (a repeat by another
     * worker for the same failure changes nothing: SYNC cannot step past it until every worker is back) and
     * resumes at that checkpoint's step. Any other worker (every ASYNC, SSP and GEO worker, and a SYNC worker
     * that took a dead worker's rank before its first join) first asks whether every server was already rolled
     * back for this server set: then another worker recovered from the same failure first and may have trained
     * on since, even past a newer checkpoint, and rolling back again would undo those pushes without telling
     * anyone (in ASYNC nothing waits that a rollback could fail). It resumes from that rollback instead; only
     * when none was done does it roll back itself. Then it joins, and goes on at its clock on the servers.
     */
    public Resumed resume(PsException cause, ConnectionHolder held) {
        held.close();
        Resumed resumed = recover(cause);
        joined = true;
        held.replace(resumed.connections());
        recoveries++;
        log.warn("Recovery {} done: the servers are back at checkpoint step {}; worker rank {} resumes at step {}",
                recoveries, resumed.checkpointStep(), rank, resumed.step());
        return resumed;
    }

    /**
     * The one recovery step of every training loop, for a push or pull that failed with {@code cause}: rethrows it
     * when it is no server loss (or recovery is off), and otherwise runs {@code onRecovering} (the job shows its
     * state and says why) and {@link #resume resumes}.
     *
     * @throws PsException {@code cause} itself when recovery does not handle it; STATE_LOST or TIMEOUT from
     *                     {@link #resume}
     */
    public Resumed resumeAfter(PsException cause, ConnectionHolder held, Runnable onRecovering) {
        if (!recovers(cause)) {
            throw cause;
        }
        onRecovering.run();
        return resume(cause, held);
    }

    /** @return true when the error means a lost server or a rollback, and recovery is on */
    public boolean recovers(PsException e) {
        return !timeout.isZero() && TRIGGERS.contains(e.code());
    }

    /**
     * @param cause the error that interrupted training
     * @return the resumed state
     * @throws PsException STATE_LOST when there is no checkpoint to return to (or a replaced server has none to
     *                     restore), TIMEOUT past the deadline
     */
    private Resumed recover(PsException cause) {
        boolean atCheckpoint = mode == ConsistencyMode.SYNC && joined;
        Deadline deadline = Deadline.after(timeout, clock);
        Duration backoff = Duration.ofMillis(250);
        PsException last = cause;
        while (true) {
            Duration left = deadline.left();
            if (left.isZero()) {
                throw new PsException(ErrorCode.TIMEOUT, "could not recover within " + timeout
                        + " (ps.worker.servers.recovery-timeout) after: " + cause.getMessage() + "; last error: "
                        + last.getMessage());
            }
            ServerConnections connections = null;
            try {
                connections = connect.apply(left);
                DenseClient client = clients.apply(connections);
                ControlClient control = ControlClient.alongside(client);
                control.declareDenseAll(client.shardMap().params(), jobUpdates);
                declareMore.accept(connections);
                if (rank == 0) {
                    client.init(initialValues.get());
                }
                long latest = control.latestCheckpoint();
                if (latest < 0) {
                    throw new PsException(ErrorCode.STATE_LOST, "lost a server and there is no complete "
                            + "checkpoint to roll back to (set ps.checkpoint.dir, shared by every server, and "
                            + "ps.checkpoint.every-steps); cause: " + cause.getMessage());
                }
                long done = atCheckpoint ? -1 : control.rolledBackTo();
                long step = done >= 0 ? done : control.rollBack(latest);
                long resumeAt = atCheckpoint ? step : resumePoint.step(control, step);
                return new Resumed(connections, client, step, resumeAt);
            } catch (PsException e) {
                if (connections != null) {
                    connections.close();
                }
                if (e.code() == ErrorCode.INVALID_ARGUMENT || e.code() == ErrorCode.STATE_LOST) {
                    throw e;
                }
                last = e;
                log.info("recovery not possible yet ({}); retrying in {} ms", e.getMessage(), backoff.toMillis());
                deadline.pause(backoff);
                if (Thread.currentThread().isInterrupted()) {
                    throw new PsException(ErrorCode.NOT_READY, "interrupted while recovering: " + e.getMessage());
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }
}
