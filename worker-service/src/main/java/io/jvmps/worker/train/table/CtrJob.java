package io.jvmps.worker.train.table;

import io.jvmps.client.PsJob;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.train.SameDiffTrainer;
import io.jvmps.client.train.TableFiles;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.worker.config.CtrProperties;
import io.jvmps.worker.config.DataSharding;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.ctr.ClickData;
import io.jvmps.worker.ctr.ClickDataSpec;
import io.jvmps.worker.ctr.ClickExamples;
import io.jvmps.worker.ctr.CtrEvaluation;
import io.jvmps.worker.ctr.WideDeepGraph;
import io.jvmps.worker.train.LibraryJoin;
import io.jvmps.worker.train.progress.CacheLog;
import io.jvmps.worker.train.progress.TrainerProgress;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/**
 * A worker's click-through-rate job ({@code ps.worker.job=CTR}): the seeded click data ({@link ClickData}) trained
 * by the library's {@link SameDiffTrainer} on the built-in wide-and-deep graph ({@link WideDeepGraph}), whose two
 * tables live on the servers, exactly as a user's model file with tables trains (declare, seed, join, embedding
 * caches and recovery are the library's). It scores this worker's shard of the test set (AUC against the oracle's,
 * log loss, accuracy) and reports it. With {@code ps.worker.output.parameters-dir} each worker writes both tables
 * ({@link TableFiles}) and every dense parameter ({@code <name>.npy}) as the servers hold them at its end; with
 * {@code ps.worker.output.model-dir} rank 0 writes the trained graph as {@code model.sd} with the tables' rows beside
 * it, once every worker has reported. Not thread-safe: one run.
 */
public class CtrJob {
    private static final Logger log = LoggerFactory.getLogger(CtrJob.class);

    private final WorkerProperties props;
    private final LibraryJoin join;
    private final TrainingMeters meters;
    private final TrainingState state;

    /**
     * @param join how this worker joins a job through the library
     */
    public CtrJob(WorkerProperties props, LibraryJoin join, TrainingMeters meters, TrainingState state) {
        this.props = props;
        this.join = join;
        this.meters = meters;
        this.state = state;
    }

    /**
     * What the job measured.
     *
     * @param steps      the worker's steps at the end (its clock: a rejoined rank counts its predecessor's)
     * @param seconds    this worker's training time
     * @param evaluation its test shard's scores
     */
    public record Outcome(long steps, double seconds, CtrEvaluation evaluation) {
    }

    /**
     * Runs the whole job; the session is the job's from here (closed when it ends).
     *
     * @param session     the worker's scheduler session, not yet registered
     * @param httpPort    this worker's HTTP port, shown in the cluster view
     * @param everyResult waits (with its own deadline) until every worker has reported; false when not all did
     * @throws PsException INVALID_ARGUMENT for dynamic sharding, a rank beyond the job's workers or GEO servers;
     *                     what the library throws (the job is left as failed first)
     */
    public Outcome run(SchedulerSession session, int httpPort, BooleanSupplier everyResult) {
        if (props.dataset().sharding() == DataSharding.DYNAMIC) {
            session.close();
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the CTR job keeps static shards: it takes no "
                    + "ps.worker.dataset.sharding=DYNAMIC");
        }
        return join.run(session, httpPort, job -> train(job, everyResult));
    }

    private Outcome train(PsJob job, BooleanSupplier everyResult) {
        int rank = job.rank();
        int workers = job.workers();
        ServerDescription semantics = job.semantics();
        if (rank >= workers) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the CTR job keeps static shards: it takes no rank "
                    + "beyond ps.cluster.worker-num (this worker has rank " + rank + " of " + workers + ")");
        }
        if (semantics.mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.job=CTR runs in SYNC, ASYNC or SSP mode; "
                    + "the servers run GEO (ps.consistency.mode)");
        }
        log.info("Training in {} mode: {}", semantics.mode(), semantics);
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.INITIALIZING, rank, job.nodeId(), 0, 0, 0,
                0, Double.NaN, 0, 0, 0, Double.NaN, null));
        CtrProperties c = props.ctr();
        var training = props.training();
        ClickDataSpec spec = new ClickDataSpec(c.fields(), c.vocabulary(), c.zipf(), c.crosses(),
                c.weightSigma(), c.crossSigma(), c.bias(), training.seed());
        ClickData train = ClickData.generate(spec, c.trainSize(), 0);
        ClickData test = ClickData.generate(spec, c.testSize(), 1);
        SameDiffTrainer trainer = new SameDiffTrainer(job, WideDeepGraph.build(spec, c.dim(), c.hidden1(),
                c.hidden2(), c.initScale(), training.seed(), c.tableOptimizer().isBlank() ? null : c.tableOptimizer(),
                c.initInServer() ? spec.distinctValues() : 0, c.lifecycle())).maxSteps(training.maxSteps());
        log.info(String.format(Locale.ROOT, "CTR job: %d fields x %d values (Zipf %.2f), %d crosses, %d train / %d test "
                        + "examples, click rate %.3f, oracle test AUC %.4f; wide-and-deep dim %d, hidden %d-%d, "
                        + "vocab_cache_size %d; table %s holds up to %d rows (%.1f MB of values)", spec.fields(),
                spec.vocabulary(), spec.zipf(), spec.crosses(), train.size(), test.size(), train.clickRate(),
                test.oracleAuc(), c.dim(), c.hidden1(), c.hidden2(), c.vocabCacheSize(), WideDeepGraph.DEEP_TABLE,
                spec.distinctValues(), spec.distinctValues() * c.dim() * 4 / 1e6));
        if (c.vocabCacheSize() > 0) {
            cache(trainer, semantics);
        }
        TrainerProgress.follow(job, state, meters, training.logInterval(), training.stepDelay());
        SameDiffTrainer.Result result;
        try {
            result = trainer.fit(new ClickExamples(train), training.batchSize(), training.epochs(), training.seed());
        } finally {
            CacheLog.log(trainer.cacheStats());
        }
        TrainingState.Snapshot trained = state.get();
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s; pull+wait %.1f s, "
                        + "compute %.1f s, push %.1f s), last loss %.6f; pushed %d bytes, pulled %d bytes (dense and "
                        + "sparse)", trainer.step(), result.seconds(), result.examples() / Math.max(1e-9, result.seconds()),
                result.phases().pullSeconds(), result.phases().computeSeconds(), result.phases().pushSeconds(),
                result.lastLoss(), trained.bytesPushed(), trained.bytesPulled()));
        state.phase(TrainingState.Phase.EVALUATING);
        IndexRange range = EpochBatches.shardRange(test.size(), workers, rank);
        CtrEvaluation evaluation = CtrEvaluation.run(trainer, test, range.from(), range.to(),
                training.evalBatchSize());
        log.info(String.format(Locale.ROOT, "CTR test AUC %.4f (oracle %.4f, gap %.4f), log loss %.4f, accuracy %.4f "
                        + "on this worker's shard [%d, %d)", evaluation.auc(), evaluation.oracle(),
                evaluation.oracle() - evaluation.auc(), evaluation.logLoss(), evaluation.accuracy(), range.from(),
                range.to()));
        long peak = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        log.info(String.format(Locale.ROOT, "Worker heap: peak %.1f MB of max %.1f MB", peak / 1e6,
                Runtime.getRuntime().maxMemory() / 1e6));
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                evaluation.accuracy(), s.error()));
        job.reportClicks(evaluation.clicks(), result.seconds());
        if (!props.output().parametersDir().isBlank()) {
            Path dir = Path.of(props.output().parametersDir(), "worker-" + rank);
            writeParameters(job, trainer, dir);
            log.info("Wrote the tables' rows and the dense parameters as the servers hold them now to {}", dir);
        }
        if (rank == 0 && !props.output().modelDir().isBlank()) {
            if (!everyResult.getAsBoolean()) {
                log.warn("Exporting the servers' values as they are now: not every worker has reported its result");
            }
            trainer.pullLatest();
            Path file = Path.of(props.output().modelDir(), "model.sd");
            createDirectories(file.getParent());
            trainer.save(file);
            log.info("Wrote the trained wide-and-deep model to {} (tables {} and {} beside it)", file,
                    WideDeepGraph.WIDE_TABLE, WideDeepGraph.DEEP_TABLE);
        }
        return new Outcome(trainer.step(), result.seconds(), evaluation);
    }

    /** Keeps both tables in worker embedding caches ({@code ps.worker.ctr.vocab-cache-size}). */
    private void cache(SameDiffTrainer trainer, ServerDescription semantics) {
        CtrProperties c = props.ctr();
        double rate = c.cacheLearningRate() > 0 ? c.cacheLearningRate() : semantics.learningRate();
        List<String> tables = List.of(WideDeepGraph.WIDE_TABLE, WideDeepGraph.DEEP_TABLE);
        for (String table : tables) {
            trainer.cacheTable(table, c.vocabCacheSize(), c.eviction(), rate, 0, c.writeBackRows());
        }
        TrainerProgress.followCaches(trainer, meters, tables);
        if (!"SGD".equalsIgnoreCase(semantics.optimizer()) || !c.tableOptimizer().isBlank()) {
            log.warn("Embedding cache on: cached rows train by local SGD at rate {} and are written back as deltas; "
                    + "the servers' table optimizer applies only to pushes without the cache", rate);
        }
    }

    /** Writes both tables' rows and the dense parameters, as the servers hold them now, to {@code dir}. */
    private void writeParameters(PsJob job, SameDiffTrainer trainer, Path dir) {
        createDirectories(dir);
        TableFiles.write(dir, job, WideDeepGraph.WIDE_TABLE, 1);
        TableFiles.write(dir, job, WideDeepGraph.DEEP_TABLE, props.ctr().dim());
        try {
            for (String name : WideDeepGraph.DENSE) {
                Nd4j.writeAsNumpy(trainer.graph().param(name), dir.resolve(name + ".npy").toFile());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CTR model's dense parameters to " + dir, e);
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }
}
