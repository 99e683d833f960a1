package io.jvmps.worker.train;

import io.jvmps.worker.train.loop.PushedGradients;
import io.jvmps.worker.train.loop.TrainingLoop;
import io.jvmps.worker.train.loop.TrainingLoops;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.DynamicSchedule;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.PsJob;
import io.jvmps.worker.train.table.CtrJob;
import io.jvmps.worker.train.table.SparseLinearJob;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.control.ProgressReporter;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.control.SchedulerSession;
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
    private final TrainingState state;
    private final DataLoader dataLoader;
    private final JobClocks clocks;
    private final Placement placement;
    private final LocalSyncFactory localSync;
    private final TrainingMeters meters;
    private final io.jvmps.worker.model.ModelProvider models;
    private final io.jvmps.worker.export.ExportRequests exports;
    private final JobExports jobExports;
    private final LibraryJob library;
    private final LibraryJoin join;

    /**
     * @param placement which parameters the servers manage (the rest are worker-local)
     * @param localSync builds the synchronisation of worker-local parameters
     * @param library   trains a model the library trains ({@link io.jvmps.worker.model.LibraryGraph})
     * @param join      how every job of this worker joins the cluster (through {@link PsJob})
     */
    public WorkerJob(WorkerProperties props, SchedulerSession session, TrainingState state, DataLoader dataLoader,
                     JobClocks clocks, Placement placement, LocalSyncFactory localSync, TrainingMeters meters,
                     io.jvmps.worker.model.ModelProvider models, io.jvmps.worker.export.ExportRequests exports,
                     LibraryJob library, LibraryJoin join) {
        this.library = library;
        this.join = join;
        this.exports = exports;
        this.jobExports = new JobExports(props, exports, clocks, session);
        this.models = models;
        this.meters = meters;
        this.props = props;
        this.session = session;
        this.state = state;
        this.dataLoader = dataLoader;
        this.clocks = clocks;
        this.placement = placement;
        this.localSync = localSync;
    }

    /**
     * @param httpPort this worker's HTTP port, announced to the scheduler
     * @return the process exit code: 0 on success
     */
    public int run(int httpPort) {
        try (ProgressReporter progress = new ProgressReporter(session.client())) {
            state.phase(TrainingState.Phase.STARTING);
            session.onRegistered(reg -> state.update(s -> new TrainingState.Snapshot(
                    TrainingState.Phase.WAITING_FOR_SERVERS, reg.rank(), reg.nodeId(), 0, 0, 0, 0, Double.NaN, 0, 0, 0,
                    Double.NaN, null)));
            if (models instanceof io.jvmps.worker.model.LibraryGraph graph) {
                library.run(session, httpPort, graph);
                state.phase(TrainingState.Phase.FINISHED);
                return 0;
            }
            if (props.job() == JobKind.CTR) {
                new CtrJob(props, join, meters, state).run(session, httpPort, jobExports::awaitEveryResult);
                state.phase(TrainingState.Phase.FINISHED);
                return 0;
            }
            // the data and the model need no server: a bad data path fails here, before any wait
            DataLoader.Loaded data = dataLoader.load(props.dataset(), props.training().seed());
            meters.skippedRows("train", data.train().skippedRows());
            meters.skippedRows("test", data.test().skippedRows());
            if (props.job() == JobKind.SPARSE_LINEAR) {
                join.run(session, httpPort, job -> {
                    runSparseLinear(job, data);
                    return null;
                });
            } else {
                TrainableModel model = models.create(data.train().featureSize(), data.train().numClasses());
                join.run(session, httpPort, job -> {
                    runDense(job, progress, data, model);
                    return null;
                });
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
     * The stock model's job in a joined job: initialise or wait for the parameters, train (recovering from a lost
     * server's state when checkpoints allow), evaluate this worker's test shard, report, and on rank 0 export the
     * model.
     */
    private void runDense(PsJob job, ProgressReporter progress, DataLoader.Loaded data, TrainableModel model) {
        int workers = job.workers();
        model.place(placement);
        ServerDescription semantics = job.semantics();
        log.info("Worker rank {} of {}: {} training samples, {} test samples, model {} with {} parameters on {} "
                        + "servers", job.rank(), workers, data.train().size(), data.test().size(), models.name(),
                model.params().stream().mapToLong(p -> p.elements()).sum(), job.servers());
        requireShardable(semantics, job.rank(), workers);
        log.info("Training in {} mode: {}; placement {}: PS-managed {}, worker-local {}", semantics.mode(),
                semantics, placement, names(model.psParams()), names(model.localParams()));
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.INITIALIZING, job.rank(), job.nodeId(), 0,
                0, 0, 0, Double.NaN, 0, 0, 0, Double.NaN, null));
        java.util.Map<String, org.nd4j.linalg.api.ndarray.INDArray> initial =
                model.initialParams(props.training().seed());
        for (io.jvmps.common.sharding.ParamSpec local : model.localParams()) {
            model.setParam(local.name(), initial.get(local.name()));
        }
        DynamicSchedule leased = dynamic() ? dynamicSchedule(job, data.train().size()) : null;
        long stepsPerWorker = Steps.wholeJob(leased, data.train().size(), workers, job.rank(),
                props.training().loop(0));
        PsJob.DenseStart dense = job.declareDense(model.psParams(), model.psParams().stream()
                .map(p -> initial.get(p.name())).toArray(org.nd4j.linalg.api.ndarray.INDArray[]::new), stepsPerWorker,
                !model.localParams().isEmpty());
        DenseClient client = dense.client();
        long start = dense.startStep();
        ParameterExporter exporter = new ParameterExporter(props.output().parametersDir());
        PushedGradients pushed = exporter.enabled() ? PushedGradients.of(model.psParams()) : PushedGradients.none();
        java.util.function.LongConsumer stepEnd = jobExports.atStepEnd(model, data.test(), semantics, job.rank(),
                workers, job.servers());
        TrainingSummary summary;
        while (true) {
            try {
                summary = trainFrom(start, client, model, data.train(), job, progress, leased, pushed, stepEnd,
                        stepsPerWorker);
                break;
            } catch (PsException e) {
                ServerRecovery.Resumed resumed = job.resume(dense, e, () -> {
                    state.phase(TrainingState.Phase.RECOVERING);
                    log.warn("Lost the servers' state ({}); recovering from their newest checkpoint", e.getMessage());
                });
                client = resumed.client();
                start = resumed.step();
            }
        }
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s; "
                        + "pull+wait %.1f s, compute %.1f s, push %.1f s), pushed %d bytes, pulled %d bytes",
                summary.steps(), summary.seconds(), summary.samplesPerSecond(), summary.pullSeconds(),
                summary.computeSeconds(), summary.pushSeconds(), client.bytesPushed(), client.bytesPulled()));
        state.phase(TrainingState.Phase.EVALUATING);
        evaluate(model, data.test(), job, summary);
        exporter.export(job.rank(), model, pushed);
        jobExports.finalModel(model, client, data.test(), semantics, job.rank(), workers, job.servers(),
                summary.steps());
    }

    /** @param leased the dynamic schedule (kept across recoveries), or null for this rank's static shard */
    private TrainingSummary trainFrom(long start, DenseClient client, TrainableModel model, Examples train, PsJob job,
                                      ProgressReporter progress, DynamicSchedule leased, PushedGradients pushed,
                                      java.util.function.LongConsumer stepEnd, long stepsPerWorker) {
        LoopSettings settings = props.training().loop(start);
        StepReporter reporter = new StepReporter(state, progress, client, job.nodeId(), clocks.wall(),
                props.training().logInterval(), meters, stepEnd);
        try (LocalParameterSync sync = localSync.create(model, job.semantics(), job::allReduce, job.workers(),
                stepsPerWorker)) {
            TrainingLoop loop = TrainingLoops.create(job.semantics(), model, client, train, settings, job.rank(),
                    reporter, sync, leased == null ? null : leased.plan(start), pushed);
            state.phase(TrainingState.Phase.TRAINING);
            String refusal = jobExports.refusal(job.rank());
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

    private DynamicSchedule dynamicSchedule(PsJob job, int samples) {
        return new DynamicSchedule(samples, props.dataset().partitions(), job.workers(), props.training().loop(0),
                job.leases(props.training().epochs(), props.dataset().partitions()));
    }

    /**
     * The sparse linear job in a joined job; rank 0 with an export folder also serves exports asked for while it
     * trains and, once every worker has reported, writes the final model.
     */
    private void runSparseLinear(PsJob ps, DataLoader.Loaded data) {
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
        io.jvmps.worker.train.progress.TrainerProgress.follow(ps, state, meters, props.training().logInterval(),
                props.training().stepDelay());
        String refusal = jobExports.refusal(ps.rank());
        if (refusal == null) { // exports asked for over REST are written between steps, on the training thread
            ps.onStep((report, examples) -> exports.serve(() -> job.export(false,
                    java.nio.file.Path.of(props.output().modelDir(), "step-" + report.globalStep()), test,
                    jobExports.manifest(ModelType.SOFTMAX.name(), semantics, workers, servers, report.globalStep()))));
            exports.open();
        }
        SparseLinearJob.Outcome outcome;
        try {
            outcome = job.run(test, dynamic() ? props.dataset().partitions() : 0);
        } finally {
            exports.close(refusal != null ? refusal
                    : "training has ended; the final model is written to " + props.output().modelDir());
        }
        shownAccuracy(outcome.examples() == 0 ? Double.NaN : (double) outcome.correct() / outcome.examples());
        ps.reportResult(outcome.correct(), outcome.examples(), outcome.seconds());
        if (refusal == null) {
            if (!jobExports.awaitEveryResult()) {
                log.warn("Exporting the servers' values as they are now: not every worker has reported its result");
            }
            job.export(true, java.nio.file.Path.of(props.output().modelDir()), test,
                    jobExports.manifest(ModelType.SOFTMAX.name(), semantics, workers, servers, outcome.steps()));
        }
    }

    private static List<String> names(List<io.jvmps.common.sharding.ParamSpec> specs) {
        return specs.stream().map(io.jvmps.common.sharding.ParamSpec::name).toList();
    }

    private void evaluate(TrainableModel model, Examples test, PsJob job, TrainingSummary summary) {
        int workers = job.workers();
        if (job.rank() >= workers) {
            log.info("No test shard for scale-out worker rank {} (the test set is split among the {} workers of "
                    + "ps.cluster.worker-num): reporting no evaluation", job.rank(), workers);
            job.reportResult(0, 0, summary.seconds());
            return;
        }
        IndexRange range = EpochBatches.shardRange(test.size(), workers, job.rank());
        int from = range.from();
        int to = range.to();
        long correct = model.evaluateCorrect(test, from, to, props.training().evalBatchSize());
        int examples = to - from;
        double accuracy = examples == 0 ? Double.NaN : (double) correct / examples;
        log.info(String.format(Locale.ROOT, "Test accuracy on this worker's shard [%d, %d): %.4f (%d/%d)",
                from, to, accuracy, correct, examples));
        shownAccuracy(accuracy);
        job.reportResult(correct, examples, summary.seconds());
    }

    /** Shows this worker's test accuracy in its state. */
    private void shownAccuracy(double accuracy) {
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                accuracy, s.error()));
    }
}
