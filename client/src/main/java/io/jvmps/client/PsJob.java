package io.jvmps.client;

import io.jvmps.client.control.ControlClient;
import io.jvmps.client.control.ProgressReporter;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.control.ServerWaiter;
import io.jvmps.client.control.StepJoiner;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.data.DenseSeeding;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.transport.ConnectionHolder;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import org.nd4j.linalg.api.ndarray.INDArray;

import io.jvmps.common.time.MonotonicClock;
import java.util.List;

/**
 * A worker's place in a running job, for any JVM training loop (what ps-lite's {@code KVWorker} is to a C++
 * one): {@link #join} registers with the scheduler (heartbeats go on in the background), waits until every
 * server answers and reads the job's training semantics; {@link #declareDense} and {@link #sparse} give the
 * data-plane clients, {@link #control} the control calls; {@link #close} leaves the job (FINISHED, or DEAD
 * after {@link #fail}). Errors are {@link PsException}s with an {@link ErrorCode}: TIMEOUT when a wait ran
 * out (naming what it waited for), UNAUTHENTICATED for a wrong cluster secret, NOT_READY for a lost server,
 * INVALID_ARGUMENT for a job this worker does not fit. Use from one thread; the clients it hands out are
 * thread-safe.
 */
public final class PsJob implements AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(PsJob.class);
    private final ClientSettings settings;
    private final MonotonicClock clock;
    private final SchedulerSession session;
    private final RegisterResponse registration;
    private final ConnectionHolder held;
    private final int servers;
    private final ServerDescription semantics;
    private final ProgressReporter progress;
    private final io.jvmps.client.allreduce.AllReduceEndpoint endpoint;
    private io.jvmps.client.allreduce.RSocketRingLink ringLink;
    /** The sparse tables declared through this job, declared again by a recovery. */
    private final java.util.Map<String, io.jvmps.common.sparse.SparseTableSpec> tables = new java.util.LinkedHashMap<>();
    private io.jvmps.client.allreduce.RingAllReduce ring;
    private final List<StepListener> stepListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private PsJob(ClientSettings settings, MonotonicClock clock, SchedulerSession session, RegisterResponse registration,
                  ServerConnections connections, ServerDescription semantics,
                  io.jvmps.client.allreduce.AllReduceEndpoint endpoint) {
        this.endpoint = endpoint;
        this.progress = new ProgressReporter(session.client());
        this.settings = settings;
        this.clock = clock;
        this.session = session;
        this.registration = registration;
        this.held = new ConnectionHolder(connections);
        this.servers = connections.size();
        this.semantics = semantics;
    }

    /** Joins with the JVM's monotonic clock measuring every deadline. */
    public static PsJob join(ClientSettings settings) {
        return join(settings, MonotonicClock.SYSTEM);
    }

    /**
     * Registers as a worker, waits for every server of the job and checks they agree on the semantics.
     *
     * @param clock measures every deadline (monotonic: a step of the wall clock does not end a wait)
     * @return the job, this worker's rank assigned
     * @throws PsException TIMEOUT when the scheduler or a server did not come within
     *                     {@link ClientSettings#serverWaitTimeout()}; INVALID_ARGUMENT when the servers expect
     *                     another number of workers than the scheduler's job
     */
    public static PsJob join(ClientSettings settings, MonotonicClock clock) {
        SchedulerClient scheduler = new SchedulerClient(settings.schedulerHost(), settings.schedulerPort(),
                settings.requestTimeout().compareTo(java.time.Duration.ofSeconds(10)) < 0 ? settings.requestTimeout()
                        : java.time.Duration.ofSeconds(10), settings.secret(), settings.schedulerTls());
        return join(settings, clock, new SchedulerSession(scheduler, settings.advertisedHost(),
                settings.heartbeatInterval(), clock), 0);
    }

    /**
     * Joins through a scheduler session the caller made (a service that already talks to the scheduler, such as
     * the stock worker, whose session carries its node identity), announcing its HTTP port. The job owns the
     * session from here: {@link #close} closes it, and a failed join marks it failed and closes it.
     *
     * @param session  not yet registered
     * @param httpPort the HTTP port shown in the cluster view (0: none)
     * @see #join(ClientSettings, MonotonicClock)
     */
    public static PsJob join(ClientSettings settings, MonotonicClock clock, SchedulerSession session, int httpPort) {
        // the AllReduce endpoint of worker-local parameters: announced at registration, where the peers look
        io.jvmps.client.allreduce.RingEndpoint endpoint;
        try {
            endpoint = io.jvmps.client.allreduce.RingEndpoint.bind("0.0.0.0", 0, settings.secret(), session.client(),
                    settings.requestTimeout());
        } catch (RuntimeException e) {
            session.markFailed();
            session.close();
            throw e;
        }
        return join(settings, clock, session, httpPort, endpoint);
    }

    /**
     * Same as {@link #join(ClientSettings, MonotonicClock, SchedulerSession, int)}, announcing an AllReduce
     * endpoint the caller runs (a service's own RSocket server) instead of binding one. The job owns the endpoint
     * from here: {@link #close} (or a failed join) closes it.
     *
     * @param endpoint where this worker's ring neighbours deliver, and how it reaches theirs
     */
    public static PsJob join(ClientSettings settings, MonotonicClock clock, SchedulerSession session, int httpPort,
                             io.jvmps.client.allreduce.AllReduceEndpoint endpoint) {
        SchedulerClient scheduler = session.client();
        ServerConnections connections = null;
        try {
            RegisterResponse reg = session.register(httpPort, endpoint.port(), settings.serverWaitTimeout(),
                    settings.serverWaitInterval());
            connections = new ServerWaiter(scheduler, clock).connect(reg.view().expectedServers(),
                    settings.serverWaitTimeout(), settings.serverWaitInterval(), session.identified(settings.connections()));
            ServerDescription semantics = new ControlClient(connections, reg.rank(), settings.requestTimeout())
                    .describe();
            int workers = reg.view().expectedWorkers();
            if (semantics.workers() != workers) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "servers expect " + semantics.workers()
                        + " workers but the scheduler's job has " + workers);
            }
            return new PsJob(settings, clock, session, reg, connections, semantics, endpoint);
        } catch (RuntimeException e) {
            if (connections != null) {
                connections.close();
            }
            endpoint.close();
            session.markFailed();
            session.close();
            throw e;
        }
    }

    /** @return this worker's rank, 0 .. {@link #workers()}-1 (rank 0 seeds the initial values) */
    public int rank() {
        return registration.rank();
    }

    /** @return this worker's node id in the cluster view */
    public String nodeId() {
        return registration.nodeId();
    }

    /** @return the number of workers the job has */
    public int workers() {
        return registration.view().expectedWorkers();
    }

    /** @return the number of servers the job has */
    public int servers() {
        return servers;
    }

    /** @return the servers' training semantics: consistency mode, staleness, GEO interval, optimizer */
    public ServerDescription semantics() {
        return semantics;
    }

    /**
     * @return the control calls on this job's current server connections (describe, declare, join, recover);
     * after a {@link #resume} ask again
     */
    public ControlClient control() {
        return new ControlClient(held.current(), rank(), settings.requestTimeout());
    }

    /** @return the settings this job was joined with */
    public ClientSettings settings() {
        return settings;
    }

    /**
     * Declares dense parameters, puts their initial values on the servers (rank 0 sends {@code initial}; the
     * others wait for them, at most {@link ClientSettings#serverWaitTimeout()}), and joins the job's steps.
     *
     * @param params  the parameters, in the same order and with the same shapes in every worker
     * @param initial their initial values, in that order (every worker passes them; only rank 0's are used)
     * @return the dense client and the step this worker's schedule starts at (0 for a fresh job; a restored
     * checkpoint's step, or later for a worker that took over a dead rank)
     */
    public DenseStart declareDense(List<ParamSpec> params, INDArray[] initial) {
        return declareDense(params, initial, 0);
    }

    /**
     * Same as {@link #declareDense(List, INDArray[])}, also telling the servers how long the job is, so that a
     * cosine learning-rate schedule configured without {@code ps.optimizer.total-steps} decays over exactly this
     * job ({@link io.jvmps.client.control.JobUpdates}: the servers count updates per slice, which in ASYNC and SSP
     * is every worker's pushes).
     *
     * @param stepsPerWorker the steps (pushes) this worker will run over the whole job; 0 = not told
     */
    public DenseStart declareDense(List<ParamSpec> params, INDArray[] initial, long stepsPerWorker) {
        return declareDense(params, initial, stepsPerWorker, false);
    }

    /**
     * Same as {@link #declareDense(List, INDArray[], long)}, for a worker that may also keep parameters of its own
     * (worker-local, averaged among the workers by {@link #allReduce}). Such a worker cannot take over the rank of a
     * dead worker in a running job: the values it would need only the other workers hold, so joining past the
     * declared step (at the first join or after a recovery) is refused. A join that fails because the servers are
     * not at one state yet (a replacement server restored a checkpoint the others have not rolled back to) goes
     * through the recovery of {@link #resume} at once.
     *
     * @param workerLocalParams true when this worker keeps worker-local parameters
     * @throws PsException INVALID_ARGUMENT when {@code workerLocalParams} and the job is already past the declared
     *                     step
     */
    public DenseStart declareDense(List<ParamSpec> params, INDArray[] initial, long stepsPerWorker,
                                   boolean workerLocalParams) {
        ShardMap shardMap = ShardMap.compute(params, servers);
        long jobUpdates = io.jvmps.client.control.JobUpdates.of(semantics.mode(), stepsPerWorker, workers());
        ServerRecovery.ResumePoint join = (control, declared) -> {
            long joined = StepJoiner.scheduleStep(control, clock, semantics, nodeId(), declared,
                    settings.requestTimeout());
            if (workerLocalParams && joined > declared) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "the job is at step " + joined + ": a worker "
                        + "cannot join a running job with worker-local parameters, whose values only the other "
                        + "workers hold");
            }
            return joined;
        };
        ServerRecovery recovery = new ServerRecovery(
                left -> new ServerWaiter(session.client(), clock).connect(servers, left, settings.serverWaitInterval(),
                        session.identified(settings.connections())),
                next -> denseClient(next, shardMap), () -> initial, rank(), settings.recoveryTimeout(), clock,
                semantics.mode(), join, next -> declareTablesOn(new ControlClient(next, rank(), settings.requestTimeout())))
                .declaringJobUpdates(jobUpdates);
        DenseClient dense = denseClient(held.current(), shardMap);
        try {
            ControlClient control = control();
            long declared = control.declareDense(params, jobUpdates);
            if (declared > 0) {
                log.info("The servers restored a checkpoint at step {}: resuming the schedule there", declared);
            }
            DenseSeeding.seedOrAwait(dense, initial, rank(), settings.serverWaitTimeout(), clock);
            long start = join.step(control, declared);
            recovery.joined();
            return new DenseStart(dense, start, recovery);
        } catch (PsException e) {
            ServerRecovery.Resumed resumed = recovery.resumeAfter(e, held, () -> log.warn("The servers are not "
                    + "ready to train from one state ({}); recovering from their newest checkpoint", e.getMessage()));
            return new DenseStart(resumed.client(), resumed.step(), recovery);
        }
    }

    private DenseClient denseClient(ServerConnections connections, ShardMap shardMap) {
        return new DenseClient(connections, shardMap, rank(), settings.requestTimeout(),
                TensorChunker.DEFAULT_CHUNK_BYTES);
    }

    /**
     * Brings the job back after a lost server, if {@code cause} is such a loss and the recovery timeout is not
     * zero: waits until every server is alive again (a replacement took the lost rank), rolls every server back
     * to the newest complete checkpoint, and rejoins. Every worker of the job does the same.
     *
     * @param dense what {@link #declareDense} gave
     * @param cause the error a push or pull raised
     * @return a dense client on the new connections and the step to go on at
     * @throws PsException {@code cause} itself when it is no server loss (or recovery is off); STATE_LOST
     *                     when the servers keep no checkpoint; TIMEOUT after the recovery timeout
     */
    public ServerRecovery.Resumed resume(DenseStart dense, PsException cause) {
        return resume(dense, cause, () -> { });
    }

    /**
     * Same as {@link #resume(DenseStart, PsException)}, telling the caller once the recovery has begun (after
     * {@code cause} was found to be a server loss, before the wait for the servers).
     *
     * @param recovering runs once the recovery begins: a status or log line of the caller's
     */
    public ServerRecovery.Resumed resume(DenseStart dense, PsException cause, Runnable recovering) {
        return dense.recovery().resumeAfter(cause, held, recovering);
    }

    /**
     * Declares sparse (embedding) tables on every server, before {@link #declareDense}: a server restoring a
     * checkpoint at the dense declaration then restores their rows too, and a recovery declares them again.
     * Idempotent for the same specs; every worker declares the same tables.
     *
     * @param specs the tables
     * @return each server's status of the last table
     * @throws PsException INVALID_ARGUMENT when a server holds a table of that name with another shape
     */
    public List<io.jvmps.common.sparse.SparseTableStatus> declareTables(List<io.jvmps.common.sparse.SparseTableSpec> specs) {
        specs.forEach(spec -> tables.put(spec.name(), spec));
        return declareTablesOn(control());
    }

    private List<io.jvmps.common.sparse.SparseTableStatus> declareTablesOn(ControlClient control) {
        List<io.jvmps.common.sparse.SparseTableStatus> last = List.of();
        for (io.jvmps.common.sparse.SparseTableSpec spec : tables.values()) {
            last = control.declareSparse(spec);
        }
        return last;
    }

    /** @return the sparse data plane (declare tables first with {@link #declareTables}) */
    public SparseClient sparse() {
        return new SparseClient(held.current(), rank(), settings.requestTimeout(), 1 << 20);
    }

    /**
     * The scheduler's leases of data partitions for dynamic sharding: each call reports the partition this worker
     * finished (or none, -1) and leases the next, retrying while the scheduler is unreachable, at most
     * {@link ClientSettings#serverWaitTimeout()}. Every worker of the job asks with the same epochs and partitions.
     *
     * @param epochs     the job's epochs
     * @param partitions partitions per epoch
     * @return the lease source of a {@link io.jvmps.client.schedule.DynamicSchedule}
     */
    public io.jvmps.client.schedule.DynamicSchedule.Leases leases(int epochs, int partitions) {
        return (doneEpoch, donePartition) -> session.nextPartition(new io.jvmps.common.protocol.PartitionRequest(
                nodeId(), epochs, partitions, doneEpoch, donePartition), settings.serverWaitTimeout(),
                settings.serverWaitInterval());
    }

    /**
     * Reports this worker's final evaluation to the scheduler (its job status sums every worker's), retrying
     * while the scheduler is unreachable, at most {@link ClientSettings#serverWaitTimeout()}.
     *
     * @param correct  test examples classified correctly
     * @param examples test examples evaluated
     * @param seconds  training time
     */
    public void reportResult(long correct, long examples, double seconds) {
        session.reportResult(new ResultReport(nodeId(), correct, examples, seconds), settings.serverWaitTimeout(),
                settings.serverWaitInterval());
    }

    /**
     * Reports this worker's final regression scores (its shard's error sums, e.g.
     * {@link io.jvmps.client.train.SameDiffTrainer#evaluateRegressionShard}); the job status sums every worker's
     * to the job's RMSE and MAE. Retries as {@link #reportResult} does.
     *
     * @param squaredError  sum of squared errors
     * @param absoluteError sum of absolute errors
     * @param targets       targets scored
     * @param seconds       training time
     */
    public void reportRegression(double squaredError, double absoluteError, long targets, double seconds) {
        session.reportResult(ResultReport.regression(nodeId(), squaredError, absoluteError, targets, seconds),
                settings.serverWaitTimeout(), settings.serverWaitInterval());
    }

    /**
     * Reports this worker's final scores of a click model (its shard's histogram, e.g.
     * {@link io.jvmps.client.train.SameDiffTrainer#evaluateClicksShard}); the job status merges every worker's to
     * the job's AUC, log loss and accuracy. Retries as {@link #reportResult} does.
     *
     * @param clicks  the shard's click histogram
     * @param seconds training time
     */
    public void reportClicks(io.jvmps.common.metrics.ClickHistogram clicks, double seconds) {
        session.reportResult(ResultReport.clicks(nodeId(), clicks, seconds), settings.serverWaitTimeout(),
                settings.serverWaitInterval());
    }

    /**
     * Reports training progress to the scheduler (its job status, dashboard and metrics show it), off the
     * calling thread: at most one report waits, a newer one replaces it, a failed one is dropped.
     *
     * @param epoch      1-based epoch
     * @param step       1-based step within the epoch
     * @param globalStep steps this worker has pushed in the job
     * @param loss       the last batch's mean loss
     * @param samplesPerSecond recent throughput
     * @param bytesPushed tensor bytes pushed so far
     * @param bytesPulled tensor bytes pulled so far
     */
    public void reportProgress(int epoch, int step, long globalStep, double loss, double samplesPerSecond,
                               long bytesPushed, long bytesPulled) {
        reportProgress(epoch, step, globalStep, loss, samplesPerSecond, bytesPushed, bytesPulled, 0);
    }

    /**
     * Same as {@link #reportProgress(int, int, long, double, double, long, long)} for one step, also handing the
     * report and the step's examples to every {@link #onStep} listener, on the calling thread.
     *
     * @param examples the step's batch size (0: not told)
     */
    public void reportProgress(int epoch, int step, long globalStep, double loss, double samplesPerSecond,
                               long bytesPushed, long bytesPulled, int examples) {
        ProgressReport report = new ProgressReport(nodeId(), epoch, step, globalStep, loss, samplesPerSecond,
                bytesPushed, bytesPulled);
        progress.report(report);
        for (StepListener listener : stepListeners) {
            listener.stepDone(report, examples);
        }
    }

    /**
     * Adds a listener of this worker's own progress reports in this JVM (a service's status page or metrics); the
     * trainer reports after every step.
     */
    public void onStep(StepListener listener) {
        stepListeners.add(listener);
    }

    /** Hears of each step this worker reports ({@link #reportProgress}); runs on the training thread, briefly. */
    @FunctionalInterface
    public interface StepListener {
        /**
         * @param report   what went to the scheduler
         * @param examples the step's batch size (0: not told)
         */
        void stepDone(ProgressReport report, int examples);
    }

    /** Makes {@link #close} leave as failed (DEAD): the scheduler lets a replacement take this rank at once. */
    public void fail() {
        session.markFailed();
    }

    /**
     * The ring AllReduce among the job's workers (for worker-local parameters, which every worker keeps and
     * updates with the same averaged gradient): made on first use, once every worker of the job has
     * registered its endpoint. Every worker must call {@link io.jvmps.client.allreduce.RingAllReduce#average}
     * with the same keys in the same order. The ring's connections present the cluster secret, over the endpoint's
     * {@link io.jvmps.client.allreduce.AllReduceEndpoint#peerTransport transport}.
     *
     * @throws PsException TIMEOUT when not every worker registered within {@link ClientSettings#serverWaitTimeout()}
     */
    public io.jvmps.client.allreduce.RingAllReduce allReduce() {
        if (ring == null) {
            List<io.jvmps.common.cluster.NodeInfo> peers = new io.jvmps.client.allreduce.PeerWaiter(session.client(),
                    clock).await(workers(), settings.serverWaitTimeout(), settings.serverWaitInterval());
            ringLink = new io.jvmps.client.allreduce.RSocketRingLink(peers, rank(), endpoint.mailbox(),
                    session.identified(new io.jvmps.client.transport.ConnectionSettings(settings.secret(),
                            endpoint.peerTransport(), settings.lossTimeout())),
                    settings.requestTimeout(), io.jvmps.common.codec.TensorChunker.DEFAULT_CHUNK_BYTES);
            ring = new io.jvmps.client.allreduce.RingAllReduce(ringLink);
        }
        return ring;
    }

    /** Closes the server connections and the AllReduce endpoint, and leaves the job. */
    @Override
    public void close() {
        progress.close();
        held.close();
        if (ringLink != null) {
            ringLink.close();
        }
        endpoint.close();
        session.close();
    }

    /**
     * Dense parameters declared and initialised.
     *
     * @param client    push, pull and init of the declared parameters
     * @param startStep the step this worker's schedule starts at
     * @param recovery  how {@link #resume} brings them back after a lost server
     */
    public record DenseStart(DenseClient client, long startStep, ServerRecovery recovery) {
    }
}
