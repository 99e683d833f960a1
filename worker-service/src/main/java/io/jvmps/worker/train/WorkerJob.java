package io.jvmps.worker.train;

import io.jvmps.worker.train.loop.PushedGradients;
import io.jvmps.worker.train.loop.TrainingLoop;
import io.jvmps.worker.train.loop.TrainingLoops;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.worker.train.schedule.DynamicSchedule;
import io.jvmps.worker.train.schedule.LoopSettings;
import io.jvmps.worker.train.schedule.Steps;
import io.jvmps.client.PsJob;
import io.jvmps.worker.train.table.CtrJob;
import io.jvmps.worker.train.table.SparseLinearJob;
import io.jvmps.client.transport.ConnectionHolder;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.control.ProgressReporter;
import io.jvmps.client.control.StepJoiner;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ResultReport;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.protocol.RegisterResponse;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.worker.allreduce.WorkerRSocketPort;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.control.ServerWaiter;
import io.jvmps.worker.config.DataSharding;
import io.jvmps.worker.config.JobKind;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.Examples;
import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.Placement;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.worker.placement.LocalParameterSync;
import io.jvmps.worker.placement.LocalSyncFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;

/**
 * One worker's whole job, start to end: register, wait for the servers, initialise or wait for the
 * parameters, train, evaluate this worker's shard of the test set, report, leave. Returns an exit
 * code; failures are logged with their reason and give a non-zero code.
 */
public class WorkerJob {
    private static final Logger log = LoggerFactory.getLogger(WorkerJob.class);

    private final WorkerProperties props;
    private final SchedulerSession session;
    private final io.jvmps.client.transport.ConnectionSettings connectionSettings;
    private final TrainingState state;
    private final DataLoader dataLoader;
    private final JobClocks clocks;
    private final Placement placement;
    private final WorkerRSocketPort rsocketPort;
    private final LocalSyncFactory localSync;
    private final TrainingMeters meters;
    private final io.jvmps.worker.model.ModelProvider models;
    private final io.jvmps.worker.export.ExportRequests exports;
    private final JobExports jobExports;
    private final LibraryJob library;

    /**
     * @param placement   which parameters the servers manage (the rest are worker-local)
     * @param rsocketPort this worker's RSocket server port (AllReduce endpoint), announced at registration
     * @param localSync   builds the synchronisation of worker-local parameters
     * @param library     trains a model the library trains ({@link io.jvmps.worker.model.LibraryGraph})
     */
    public WorkerJob(WorkerProperties props, SchedulerSession session,
                     io.jvmps.client.transport.ConnectionSettings connectionSettings,
                     TrainingState state, DataLoader dataLoader, JobClocks clocks, Placement placement,
                     WorkerRSocketPort rsocketPort, LocalSyncFactory localSync, TrainingMeters meters,
                     io.jvmps.worker.model.ModelProvider models,
                     io.jvmps.worker.export.ExportRequests exports, LibraryJob library) {
        this.library = library;
        this.exports = exports;
        this.jobExports = new JobExports(props, exports, clocks, session);
        this.models = models;
        this.meters = meters;
        this.props = props;
        this.session = session;
        this.connectionSettings = connectionSettings;
        this.state = state;
        this.dataLoader = dataLoader;
        this.clocks = clocks;
        this.placement = placement;
        this.rsocketPort = rsocketPort;
        this.localSync = localSync;
    }

    /**
     * @param httpPort this worker's HTTP port, announced to the scheduler
     * @return the process exit code: 0 on success
     */
    public int run(int httpPort) {
        try (ProgressReporter progress = new ProgressReporter(session.client())) {
            state.phase(TrainingState.Phase.STARTING);
            if (models instanceof io.jvmps.worker.model.LibraryGraph graph) {
                library.run(session, httpPort, graph);
                state.phase(TrainingState.Phase.FINISHED);
                return 0;
            }
            if (props.job() == JobKind.CTR) {
                new CtrJob(props, library.settings(), clocks.deadlines(), meters, state).run(session, httpPort,
                        (dense, nodeId) -> new StepReporter(state, progress, dense, nodeId, clocks.wall(),
                                props.training().logInterval(), meters), jobExports::awaitEveryResult);
                state.phase(TrainingState.Phase.FINISHED);
                return 0;
            }
            if (props.job() == JobKind.SPARSE_LINEAR) {
                // the data needs no server: a bad data path fails here, before any wait
                DataLoader.Loaded data = dataLoader.load(props.dataset(), props.training().seed());
                meters.skippedRows("train", data.train().skippedRows());
                meters.skippedRows("test", data.test().skippedRows());
                state.phase(TrainingState.Phase.WAITING_FOR_SERVERS);
                try (PsJob job = PsJob.join(library.settings(), clocks.deadlines(), session, httpPort)) {
                    try {
                        runSparseLinear(job, progress, data);
                    } catch (RuntimeException e) {
                        job.fail();
                        throw e;
                    }
                }
                state.phase(TrainingState.Phase.FINISHED);
                return 0;
            }
            int port = rsocketPort.await(props.servers().waitTimeout());
            RegisterResponse reg = session.register(httpPort, port, props.servers().waitTimeout(),
                    props.servers().waitInterval());
            // the data and the model need no server: they load while the servers start (and a bad data path
            // fails here, before any wait)
            DataLoader.Loaded data = dataLoader.load(props.dataset(), props.training().seed());
            meters.skippedRows("train", data.train().skippedRows());
            meters.skippedRows("test", data.test().skippedRows());
            TrainableModel model = models.create(data.train().featureSize(), data.train().numClasses());
            state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.WAITING_FOR_SERVERS, reg.rank(),
                    reg.nodeId(), 0, 0, 0, 0, Double.NaN, 0, 0, 0, Double.NaN, null));
            int workers = reg.view().expectedWorkers();
            int expectedServers = reg.view().expectedServers();
            ServerConnections first = awaitServers(expectedServers, props.servers().waitTimeout());
            try (ConnectionHolder held = new ConnectionHolder(first)) {
                runDense(held, expectedServers, reg, workers, progress, data, model);
            }
            state.phase(TrainingState.Phase.FINISHED);
            return 0;
        } catch (io.jvmps.client.control.JobFailedException e) {
            // exit 0: a restart policy that restarts failed containers must not start it again and again
            log.error("Not training: {}", e.getMessage());
            failed(e.getMessage());
            return 0;
        } catch (RuntimeException e) {
            JobEnding ending = JobEnding.of(e, Thread.currentThread().isInterrupted());
            ending.log(log, e);
            if (e instanceof PsException p && p.code() == ErrorCode.STATE_LOST) {
                session.failJob(p.detail());
            }
            session.markFailed();
            failed(ending.reason());
            return 1;
        } finally {
            session.close();
        }
    }

    /** Shows the job FAILED with {@code reason} in this worker's state, keeping what it had reached. */
    private void failed(String reason) {
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.FAILED, s.rank(), s.nodeId(), s.epoch(),
                s.step(), s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(),
                s.bytesPulled(), s.accuracy(), reason));
    }

    /**
     * The stock model's job: initialise or wait for the parameters, join, train (recovering from a lost server's
     * state when checkpoints allow), evaluate this worker's test shard, report, and on rank 0 export the model.
     */
    private void runDense(ConnectionHolder held, int expectedServers, RegisterResponse reg, int workers,
                          ProgressReporter progress, DataLoader.Loaded data, TrainableModel model) {
        ServerConnections connections = held.current();
        model.place(placement);
        ShardMap shardMap = ShardMap.compute(model.psParams(), connections.size());
        log.info("Worker rank {} of {}: {} training samples, {} test samples, model {} with {} parameters in {}",
                reg.rank(), workers, data.train().size(), data.test().size(), models.name(),
                model.params().stream().mapToLong(p -> p.elements()).sum(), shardMap);
        ServerDescription semantics = semantics(connections, workers);
        requireShardable(semantics, reg.rank(), workers);
        log.info("Training in {} mode: {}; placement {}: PS-managed {}, worker-local {}", semantics.mode(),
                semantics, placement, names(model.psParams()), names(model.localParams()));
        java.util.function.Function<ServerConnections, DenseClient> clients = c -> new DenseClient(c, shardMap,
                reg.rank(), props.servers().requestTimeout(), io.jvmps.common.codec.TensorChunker.DEFAULT_CHUNK_BYTES);
        DenseClient client = clients.apply(connections);
        state.phase(TrainingState.Phase.INITIALIZING);
        ServerRecovery recovery = new ServerRecovery(left -> awaitServers(expectedServers, left), clients,
                () -> ParameterInitializer.initialValues(model, props.training().seed(), shardMap), reg.rank(),
                props.servers().recoveryTimeout(), clocks.deadlines(), semantics.mode(),
                (recovered, checkpointStep) -> joinStep(recovered, model, semantics, reg, checkpointStep));
        DynamicSchedule leased = dynamic() ? dynamicSchedule(data.train().size(), workers, reg.nodeId()) : null;
        long stepsPerWorker = Steps.wholeJob(leased, data.train().size(), workers, reg.rank(), props.training());
        long jobUpdates = io.jvmps.client.control.JobUpdates.of(semantics.mode(), stepsPerWorker, workers);
        recovery.declaringJobUpdates(jobUpdates);
        long start;
        try {
            long restored = new ParameterInitializer(client, model, props, clocks.deadlines())
                    .initialize(reg.rank(), jobUpdates);
            start = joinStep(io.jvmps.client.control.ControlClient.alongside(client), model, semantics, reg,
                    restored);
            recovery.joined();
        } catch (PsException e) {
            // e.g. joining while a replacement server has restored a checkpoint and the others have
            // not rolled back to it yet (its host was lost together with this worker's predecessor)
            ServerRecovery.Resumed resumed = recover(recovery, e, held, "The servers are not ready to train from "
                    + "one state");
            client = resumed.client();
            start = resumed.step();
        }
        ParameterExporter exporter = new ParameterExporter(props.output().parametersDir());
        PushedGradients pushed = exporter.enabled() ? PushedGradients.of(model.psParams()) : PushedGradients.none();
        TrainingSummary summary;
        while (true) {
            try {
                java.util.function.LongConsumer stepEnd = jobExports.atStepEnd(model, data.test(), semantics,
                        reg.rank(), workers, connections.size());
                summary = trainFrom(start, client, model, data.train(), semantics, reg, workers, progress,
                        leased, pushed, stepEnd, stepsPerWorker);
                break;
            } catch (PsException e) {
                ServerRecovery.Resumed resumed = recover(recovery, e, held, "Lost the servers' state");
                client = resumed.client();
                start = resumed.step();
            }
        }
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s; "
                        + "pull+wait %.1f s, compute %.1f s, push %.1f s), pushed %d bytes, pulled %d bytes",
                summary.steps(), summary.seconds(), summary.samplesPerSecond(), summary.pullSeconds(),
                summary.computeSeconds(), summary.pushSeconds(), client.bytesPushed(), client.bytesPulled()));
        state.phase(TrainingState.Phase.EVALUATING);
        evaluate(model, data.test(), reg, workers, summary);
        exporter.export(reg.rank(), model, pushed);
        jobExports.finalModel(model, client, data.test(), semantics, reg.rank(), workers, connections.size(),
                summary.steps());
    }

    /**
     * The one recovery path of the stock job: rethrows {@code cause} when the servers' state cannot be recovered
     * from it, and otherwise returns the job rolled back to the servers' newest checkpoint.
     *
     * @param what what went wrong, for the log
     */
    private ServerRecovery.Resumed recover(ServerRecovery recovery, PsException cause, ConnectionHolder held,
                                           String what) {
        return recovery.resumeAfter(cause, held, () -> {
            state.phase(TrainingState.Phase.RECOVERING);
            log.warn("{} ({}); recovering from their newest checkpoint", what, cause.getMessage());
        });
    }

    /** @param leased the dynamic schedule (kept across recoveries), or null for this rank's static shard */
    private TrainingSummary trainFrom(long start, DenseClient client, TrainableModel model, Examples train,
                                      ServerDescription semantics, RegisterResponse reg, int workers,
                                      ProgressReporter progress, DynamicSchedule leased, PushedGradients pushed,
                                      java.util.function.LongConsumer stepEnd, long stepsPerWorker) {
        LoopSettings settings = LoopSettings.of(props.training(), start);
        StepReporter reporter = new StepReporter(state, progress, client, reg.nodeId(), clocks.wall(),
                props.training().logInterval(), meters, stepEnd);
        try (LocalParameterSync sync = localSync.create(model, semantics, session, reg.rank(), workers,
                stepsPerWorker)) {
            TrainingLoop loop = TrainingLoops.create(semantics, model, client, train, settings, reg.rank(), reporter,
                    sync, leased == null ? null : leased.plan(start), pushed);
            state.phase(TrainingState.Phase.TRAINING);
            String refusal = jobExports.refusal(reg.rank());
            if (refusal == null) {
                exports.open();
            }
            TrainingSummary summary;
            try {
                summary = loop.run();
            } finally {
                exports.close(refusal != null ? refusal
                        : "training has ended; the final model is written to " + props.output().modelDir());
            }
            if (sync != LocalParameterSync.NONE) {
                log.info("Hybrid mode: {}", sync.describe());
            }
            return summary;
        }
    }

    /**
     * Tells the servers to expect this worker from the step its schedule goes on at (see
     * {@link StepJoiner#scheduleStep}): the declared step for a fresh or restored SYNC job; in ASYNC, SSP
     * and GEO the rank's own clock, which is a checkpoint's for a restored job and the step after the dead
     * worker's last push when it took over that worker's rank.
     */
    private long joinStep(io.jvmps.client.control.ControlClient control, TrainableModel model, ServerDescription semantics, RegisterResponse reg,
                          long declared) {
        long joined = StepJoiner.scheduleStep(control, clocks.deadlines(), semantics, reg.nodeId(), declared,
                props.servers().requestTimeout());
        if (joined > declared && !model.localParams().isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the job is at step " + joined + ": a worker cannot "
                    + "join a running job with worker-local parameters (ps.worker.placement=HYBRID), whose "
                    + "values only the other workers hold");
        }
        return joined;
    }

    private boolean dynamic() {
        return props.dataset().sharding() == DataSharding.DYNAMIC;
    }

    /**
     * @throws PsException INVALID_ARGUMENT when dynamic sharding is asked for in a mode that needs equal
     *                     static shards, or a scale-out rank (beyond worker-num) has no shard of its own
     */
    private void requireShardable(ServerDescription semantics, int rank, int workers) {
        io.jvmps.common.protocol.ConsistencyMode mode = semantics.mode();
        if (dynamic() && mode == io.jvmps.common.protocol.ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.dataset.sharding=DYNAMIC runs in SYNC, ASYNC or SSP "
                    + "mode; the servers run GEO (ps.consistency.mode), whose rounds need a fixed schedule");
        }
        if (!dynamic() && rank >= workers) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "this worker got rank " + rank + ", beyond "
                    + "ps.cluster.worker-num=" + workers + " (scale-out): only ps.worker.dataset.sharding=DYNAMIC gives it data");
        }
        if (dynamic()) {
            log.info("Dynamic data sharding: {} partitions per epoch, leased by the scheduler",
                    props.dataset().partitions());
        }
    }

    private DynamicSchedule dynamicSchedule(int samples, int workers, String nodeId) {
        LoopSettings settings = LoopSettings.of(props.training(), 0);
        return new DynamicSchedule(samples, props.dataset().partitions(), workers, settings,
                (doneEpoch, donePartition) -> session.nextPartition(new io.jvmps.common.protocol
                        .PartitionRequest(nodeId, props.training().epochs(), props.dataset().partitions(), doneEpoch,
                        donePartition), props.servers().waitTimeout(), props.servers().waitInterval()));
    }

    private ServerDescription semantics(ServerConnections connections, int workers) {
        ServerDescription semantics = new io.jvmps.client.control.ControlClient(connections, session.registration().rank(),
                props.servers().waitInterval().plusSeconds(10)).describe();
        if (semantics.workers() != workers) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "servers expect " + semantics.workers()
                    + " workers but the scheduler's job has " + workers);
        }
        return semantics;
    }

    /**
     * The sparse linear job in a joined job; rank 0 with an export folder also serves exports asked for while it
     * trains and, once every worker has reported, writes the final model.
     */
    private void runSparseLinear(PsJob ps, ProgressReporter progress, DataLoader.Loaded data) {
        int workers = ps.workers();
        int servers = ps.servers();
        ServerDescription semantics = ps.semantics();
        requireShardable(semantics, ps.rank(), workers);
        if (semantics.mode() == io.jvmps.common.protocol.ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.job=" + props.job() + " runs "
                    + "in SYNC, ASYNC or SSP mode; the servers run GEO (ps.consistency.mode)");
        }
        log.info("Training in {} mode: {}", semantics.mode(), semantics);
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.INITIALIZING, ps.rank(), ps.nodeId(), 0, 0,
                0, 0, Double.NaN, 0, 0, 0, Double.NaN, null));
        io.jvmps.client.dataset.LibSvmFile train = (io.jvmps.client.dataset.LibSvmFile) data.train();
        io.jvmps.client.dataset.LibSvmFile test = (io.jvmps.client.dataset.LibSvmFile) data.test();
        SparseLinearJob job = new SparseLinearJob(props, clocks, train, ps);
        String refusal = jobExports.refusal(ps.rank());
        java.util.function.LongConsumer stepEnd = refusal != null ? global -> { } : global -> exports.serve(() ->
                job.export(java.nio.file.Path.of(props.output().modelDir(), "step-" + global), test,
                        jobExports.manifest(ModelType.SOFTMAX.name(), semantics, workers, servers, global)));
        if (refusal == null) {
            exports.open();
        }
        DynamicSchedule leased = dynamic() ? dynamicSchedule(train.size(), workers, ps.nodeId()) : null;
        SparseLinearJob.Outcome outcome;
        try {
            outcome = job.run(test, leased, (dense, nodeId) -> new StepReporter(state, progress, dense, nodeId,
                    clocks.wall(), props.training().logInterval(), meters, stepEnd), state);
        } finally {
            exports.close(refusal != null ? refusal
                    : "training has ended; the final model is written to " + props.output().modelDir());
        }
        double accuracy = outcome.examples() == 0 ? Double.NaN : (double) outcome.correct() / outcome.examples();
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                accuracy, s.error()));
        ps.reportResult(outcome.correct(), outcome.examples(), outcome.summary().seconds());
        if (refusal == null) {
            if (!jobExports.awaitEveryResult()) {
                log.warn("Exporting the servers' values as they are now: not every worker has reported its result");
            }
            job.export(java.nio.file.Path.of(props.output().modelDir()), test,
                    jobExports.manifest(ModelType.SOFTMAX.name(), semantics, workers, servers,
                            outcome.summary().steps()));
        }
    }

    /** Shows this worker's test result in its state and reports it to the scheduler. */
    private void reportShard(RegisterResponse reg, long correct, int examples, double seconds) {
        reportShard(reg, new ResultReport(reg.nodeId(), correct, examples, seconds));
    }

    private void reportShard(RegisterResponse reg, ResultReport result) {
        double accuracy = result.total() == 0 ? Double.NaN : (double) result.correct() / result.total();
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                accuracy, s.error()));
        session.reportResult(result, props.servers().waitTimeout(), props.servers().waitInterval());
    }

    private static List<String> names(List<io.jvmps.common.sharding.ParamSpec> specs) {
        return specs.stream().map(io.jvmps.common.sharding.ParamSpec::name).toList();
    }

    private ServerConnections awaitServers(int expected, java.time.Duration timeout) {
        return new ServerWaiter(session.client(), clocks.deadlines()).connect(expected, timeout, props.servers().waitInterval(),
                session.identified(connectionSettings));
    }

    private void evaluate(TrainableModel model, Examples test, RegisterResponse reg, int workers,
                          TrainingSummary summary) {
        if (reg.rank() >= workers) {
            log.info("No test shard for scale-out worker rank {} (the test set is split among the {} workers of "
                    + "ps.cluster.worker-num): reporting no evaluation", reg.rank(), workers);
            session.reportResult(new ResultReport(reg.nodeId(), 0, 0, summary.seconds()),
                    props.servers().waitTimeout(), props.servers().waitInterval());
            return;
        }
        IndexRange range = EpochBatches.shardRange(test.size(), workers, reg.rank());
        int from = range.from();
        int to = range.to();
        long correct = model.evaluateCorrect(test, from, to, props.training().evalBatchSize());
        int examples = to - from;
        log.info(String.format(Locale.ROOT, "Test accuracy on this worker's shard [%d, %d): %.4f (%d/%d)",
                from, to, examples == 0 ? Double.NaN : (double) correct / examples, correct, examples));
        reportShard(reg, correct, examples, summary.seconds());
    }
}
