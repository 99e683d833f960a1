package io.jvmps.worker.train.table;

import io.jvmps.client.PsJob;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.data.SparseRowStore;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.train.TableFiles;
import io.jvmps.common.embedding.CacheStats;
import io.jvmps.common.embedding.EmbeddingCacheManager;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.common.sparse.SparseTableStatus;
import io.jvmps.common.time.MonotonicClock;
import io.jvmps.worker.config.CtrProperties;
import io.jvmps.worker.config.DataSharding;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.ctr.CachedLookup;
import io.jvmps.worker.ctr.ClickData;
import io.jvmps.worker.ctr.ClickDataSpec;
import io.jvmps.worker.ctr.CtrEvaluation;
import io.jvmps.worker.ctr.DirectLookup;
import io.jvmps.worker.ctr.EmbeddingLookup;
import io.jvmps.worker.ctr.WideDeepModel;
import io.jvmps.worker.train.progress.StepReporterFactory;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.Steps;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A worker's click-through-rate job, joined through {@link PsJob} like any program on the library (so the declare,
 * seed, join and recovery sequence is the library's): generate the seeded click data, declare the wide (dim 1)
 * and deep (dim d) tables, seed the dense part of the wide-and-deep model, train with {@link CtrLoop} (recovering
 * from a lost server's state when checkpoints allow), score this worker's shard of the test set (AUC against the
 * oracle's) and report it. With {@code ps.worker.output.model-dir}, rank 0 then writes the trained model once every
 * worker has reported: both tables as {@code <table>.ids.npy} and {@code <table>.rows.npy} ({@link TableFiles}) and
 * each dense parameter as {@code <name>.npy}. Not thread-safe: one run.
 */
public class CtrJob {
    /** Name of the wide table (one weight per field value and crossed pair). */
    static final String WIDE_TABLE = "ctr.wide";
    /** Name of the deep table (field embeddings). */
    static final String DEEP_TABLE = "ctr.deep";
    private static final Logger log = LoggerFactory.getLogger(CtrJob.class);

    private final WorkerProperties props;
    private final io.jvmps.worker.train.LibraryJoin join;
    private final MonotonicClock clock;
    private final TrainingMeters meters;
    private final TrainingState state;
    private final Map<String, AtomicReference<Supplier<CacheStats>>> cacheStats = new HashMap<>();

    /**
     * @param join how this worker joins a job through the library
     */
    public CtrJob(WorkerProperties props, io.jvmps.worker.train.LibraryJoin join, TrainingMeters meters,
                  TrainingState state) {
        this.props = props;
        this.join = join;
        this.clock = join.clock();
        this.meters = meters;
        this.state = state;
    }

    /** What the job measured. */
    public record Outcome(TrainingSummary summary, CtrEvaluation evaluation) {
    }

    /**
     * Runs the whole job; the session is the job's from here (closed when it ends).
     *
     * @param session     the worker's scheduler session, not yet registered
     * @param httpPort    this worker's HTTP port, shown in the cluster view
     * @param reporters   makes the loop's step reporter
     * @param everyResult waits (with its own deadline) until every worker has reported; false when not all did
     * @throws PsException INVALID_ARGUMENT for dynamic sharding, a rank beyond the job's workers or GEO servers;
     *                     what the library throws (the job is left as failed first)
     */
    public Outcome run(SchedulerSession session, int httpPort, StepReporterFactory reporters,
                       BooleanSupplier everyResult) {
        if (props.dataset().sharding() == DataSharding.DYNAMIC) {
            session.close();
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the CTR job keeps static shards: it takes no "
                    + "ps.worker.dataset.sharding=DYNAMIC");
        }
        return join.run(session, httpPort, job -> train(job, reporters, everyResult));
    }

    private Outcome train(PsJob job, StepReporterFactory reporters, BooleanSupplier everyResult) {
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
        ClickDataSpec spec = new ClickDataSpec(c.fields(), c.vocabulary(), c.zipf(), c.crosses(),
                c.weightSigma(), c.crossSigma(), c.bias(), props.training().seed());
        ClickData train = ClickData.generate(spec, c.trainSize(), 0);
        ClickData test = ClickData.generate(spec, c.testSize(), 1);
        WideDeepModel model = new WideDeepModel(spec.wideIds(), spec.fields(), c.dim(), c.hidden1(), c.hidden2());
        List<SparseTableStatus> declared = job.declareTables(tables(spec));
        log.info(String.format(Locale.ROOT, "Table %s declared: %d rows of dim %d (%.1f MB of values) in the vocabulary; "
                        + "held now on the servers: %s", DEEP_TABLE, spec.distinctValues(), c.dim(),
                spec.distinctValues() * c.dim() * 4 / 1e6, declared.stream().map(t -> String.format(Locale.ROOT,
                        "%d rows / %.1f MB", t.rows(), t.bytes() / 1e6)).toList()));
        log.info(String.format(Locale.ROOT, "CTR job: %d fields x %d values (Zipf %.2f), %d crosses, %d train / %d test "
                        + "examples, click rate %.3f, oracle test AUC %.4f; wide-and-deep dim %d, hidden %d-%d, "
                        + "vocab_cache_size %d", spec.fields(), spec.vocabulary(), spec.zipf(), spec.crosses(),
                train.size(), test.size(), train.clickRate(), test.oracleAuc(), c.dim(), c.hidden1(),
                c.hidden2(), c.vocabCacheSize()));
        // servers with a checkpoint restore it at the dense declaration (the tables with it)
        PsJob.DenseStart start = job.declareDense(model.params(), model.initialParams(props.training().seed()),
                Steps.wholeJob(null, train.size(), workers, rank, props.training().loop(0)));
        if (start.startStep() > 0) {
            log.info("Resuming the schedule at step {}", start.startStep());
        }
        DenseClient dense = start.client();
        SparseClient sparse = job.sparse();
        long from = start.startStep();
        ExecutorService prefetch = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "embedding-store");
            t.setDaemon(true);
            return t;
        });
        TrainingSummary summary = null;
        try {
            while (summary == null) {
                LoopSettings loopSettings = props.training().loop(from);
                EmbeddingLookup wide = lookup(sparse, WIDE_TABLE, 1, semantics, prefetch);
                EmbeddingLookup deep = lookup(sparse, DEEP_TABLE, c.dim(), semantics, prefetch);
                state.phase(TrainingState.Phase.TRAINING);
                try {
                    summary = new CtrLoop(model, train, wide, deep, dense, loopSettings, rank, workers,
                            reporters.create(dense, job.nodeId())).run();
                    wide.close();
                    deep.close();
                    logCache(WIDE_TABLE, wide.stats());
                    logCache(DEEP_TABLE, deep.stats());
                } catch (PsException e) {
                    if (!start.recovery().recovers(e)) {
                        writeBackOnStop(wide, deep, e); // the job ends: keep what the caches learnt
                    }
                    var resumed = job.resume(start, e, () -> {
                        state.phase(TrainingState.Phase.RECOVERING);
                        log.warn("Lost the servers' state ({}); recovering from their newest checkpoint. The "
                                + "embedding caches' rows are dropped unwritten: they belong to steps the servers "
                                + "roll back", e.getMessage());
                    });
                    dense = resumed.client();
                    sparse = job.sparse();
                    from = resumed.step();
                } catch (RuntimeException e) {
                    writeBackOnStop(wide, deep, e);
                    throw e;
                }
            }
        } finally {
            prefetch.shutdownNow();
        }
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s; pull+lookup %.1f s, "
                        + "compute %.1f s, push %.1f s); sparse pushed %d bytes, pulled %d bytes",
                summary.steps(), summary.seconds(), summary.samplesPerSecond(), summary.pullSeconds(),
                summary.computeSeconds(), summary.pushSeconds(), sparse.bytesPushed(), sparse.bytesPulled()));
        state.phase(TrainingState.Phase.EVALUATING);
        IndexRange range = EpochBatches.shardRange(test.size(), workers, rank);
        CtrEvaluation evaluation = CtrEvaluation.run(model, sparse, WIDE_TABLE, DEEP_TABLE, c.dim(), test,
                range.from(), range.to(), props.training().evalBatchSize());
        log.info(String.format(Locale.ROOT, "CTR test AUC %.4f (oracle %.4f, gap %.4f), log loss %.4f, accuracy %.4f "
                        + "on this worker's shard [%d, %d)", evaluation.auc(), evaluation.oracle(),
                evaluation.oracle() - evaluation.auc(), evaluation.logLoss(),
                (double) evaluation.correct() / Math.max(1, evaluation.examples()), range.from(), range.to()));
        long peak = java.lang.management.ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        log.info(String.format(Locale.ROOT, "Worker heap: peak %.1f MB of max %.1f MB", peak / 1e6,
                Runtime.getRuntime().maxMemory() / 1e6));
        double accuracy = evaluation.examples() == 0 ? Double.NaN
                : (double) evaluation.correct() / evaluation.examples();
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                accuracy, s.error()));
        job.reportClicks(evaluation.clicks(), summary.seconds());
        if (!props.output().parametersDir().isBlank()) {
            Path dir = Path.of(props.output().parametersDir(), "worker-" + rank);
            writeModel(job, dense, model, dir);
            log.info("Wrote the tables' rows and the dense parameters as the servers hold them now to {}", dir);
        }
        if (rank == 0 && !props.output().modelDir().isBlank()) {
            if (!everyResult.getAsBoolean()) {
                log.warn("Exporting the servers' values as they are now: not every worker has reported its result");
            }
            Path dir = Path.of(props.output().modelDir());
            writeModel(job, dense, model, dir);
            log.info("Wrote the trained wide-and-deep model (tables {} and {}, {} dense parameters) to {}",
                    WIDE_TABLE, DEEP_TABLE, model.params().size(), dir);
        }
        return new Outcome(summary, evaluation);
    }

    /** The wide and deep tables' declarations (every worker declares the same). */
    private List<SparseTableSpec> tables(ClickDataSpec spec) {
        CtrProperties c = props.ctr();
        String optimizer = c.tableOptimizer().isBlank() ? null : c.tableOptimizer();
        long initRows = c.initInServer() ? spec.distinctValues() : 0;
        return List.of(new SparseTableSpec(WIDE_TABLE, 1, props.training().seed(), 0f, optimizer),
                new SparseTableSpec(DEEP_TABLE, c.dim(), props.training().seed() + 1, c.initScale(), optimizer,
                        initRows));
    }

    /** Writes both tables' rows and the dense parameters, as the servers hold them now, to {@code dir}. */
    private void writeModel(PsJob job, DenseClient dense, WideDeepModel model, Path dir) {
        try {
            Files.createDirectories(dir);
            TableFiles.write(dir, job, WIDE_TABLE, 1);
            TableFiles.write(dir, job, DEEP_TABLE, props.ctr().dim());
            INDArray[] values = model.emptyParams();
            dense.pull(0, values);
            for (int p = 0; p < values.length; p++) {
                Nd4j.writeAsNumpy(values[p], dir.resolve(model.params().get(p).name() + ".npy").toFile());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the CTR model to " + dir, e);
        }
    }

    private static void writeBackOnStop(EmbeddingLookup wide, EmbeddingLookup deep, RuntimeException e) {
        log.warn("Training stopped ({}); writing the embedding caches' changed rows back before leaving",
                e.getMessage());
        wide.close();
        deep.close();
        logCache(WIDE_TABLE, wide.stats());
        logCache(DEEP_TABLE, deep.stats());
        log.info("Embedding caches written back after the stop");
    }

    private EmbeddingLookup lookup(SparseClient sparse, String table, int dim, ServerDescription semantics,
                                   ExecutorService prefetch) {
        CtrProperties c = props.ctr();
        if (c.vocabCacheSize() == 0) {
            return new DirectLookup(sparse, table, dim);
        }
        double rate = c.cacheLearningRate() > 0 ? c.cacheLearningRate() : semantics.learningRate();
        if (!"SGD".equalsIgnoreCase(semantics.optimizer()) || !c.tableOptimizer().isBlank()) {
            log.warn("Embedding cache on: cached rows of {} train by local SGD at rate {} and are written back as "
                    + "deltas; the servers' table optimizer applies only to pushes without the cache", table, rate);
        }
        EmbeddingCacheManager cache = new EmbeddingCacheManager(dim, c.vocabCacheSize(), c.eviction(),
                new SparseRowStore(sparse, table, dim), prefetch, c.writeBackRows());
        cacheStats.computeIfAbsent(table, name -> {
            AtomicReference<Supplier<CacheStats>> current =
                    new AtomicReference<>(() -> CacheStats.NONE);
            meters.embeddingCache(name, () -> current.get().get()); // registered once; follows the cache after a recovery
            return current;
        }).set(cache::stats);
        return new CachedLookup(cache, (float) rate);
    }

    private static void logCache(String table, CacheStats stats) {
        if (stats.hits() + stats.misses() == 0) {
            return;
        }
        log.info(String.format(Locale.ROOT, "Embedding cache %s: hit rate %.4f (%d hits, %d misses, %d prefetched), "
                        + "%d evictions, %d write-backs, prefetch wait %.2f s; lookup hit rate %.4f (%d of %d lookups)",
                table, stats.hitRate(), stats.hits(), stats.misses(), stats.prefetched(), stats.evictions(),
                stats.writeBacks(), stats.prefetchWaitNanos() / 1e9, stats.positionHitRate(), stats.positionHits(),
                stats.positions()));
    }
}
