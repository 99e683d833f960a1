package io.jvmps.worker.train.table;

import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.worker.train.schedule.LoopSettings;
import io.jvmps.worker.train.schedule.Steps;
import io.jvmps.client.transport.ConnectionHolder;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.control.StepJoiner;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.embedding.CacheStats;
import io.jvmps.common.embedding.EmbeddingCacheManager;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.client.control.ControlClient;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.data.SparseRowStore;
import io.jvmps.worker.config.CtrProperties;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.ctr.CachedLookup;
import io.jvmps.worker.ctr.ClickData;
import io.jvmps.worker.ctr.ClickDataSpec;
import io.jvmps.worker.ctr.CtrEvaluation;
import io.jvmps.worker.ctr.DirectLookup;
import io.jvmps.worker.ctr.EmbeddingLookup;
import io.jvmps.worker.ctr.TableExport;
import io.jvmps.worker.ctr.WideDeepModel;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.jvmps.common.time.MonotonicClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A worker's click-through-rate job once the servers answer: generate the seeded click data, declare the
 * wide (dim 1) and deep (dim d) tables on the servers, seed the dense part of the wide-and-deep model,
 * train with {@link CtrLoop}, then score this worker's shard of the test set (AUC against the oracle's).
 */
public class CtrJob {
    /** Name of the wide table (one weight per field value and crossed pair). */
    static final String WIDE_TABLE = "ctr.wide";
    /** Name of the deep table (field embeddings). */
    static final String DEEP_TABLE = "ctr.deep";
    private static final Logger log = LoggerFactory.getLogger(CtrJob.class);
    private static final int SPARSE_FRAME_BYTES = 1 << 20;

    private final WorkerProperties props;
    private final MonotonicClock clock;
    private final TrainingMeters meters;
    private final Map<String, AtomicReference<Supplier<CacheStats>>>
            cacheStats = new HashMap<>();

    public CtrJob(WorkerProperties props, MonotonicClock clock, TrainingMeters meters) {
        this.props = props;
        this.clock = clock;
        this.meters = meters;
    }

    /** What the job measured. */
    public record Outcome(TrainingSummary summary, CtrEvaluation evaluation) {
    }

    /**
     * @param held      the connections to the servers, replaced after a recovery
     * @param reconnect waits (up to the given time) until every server is alive and reachable again
     */
    public Outcome run(ConnectionHolder held, Function<Duration, ServerConnections> reconnect, int rank, String nodeId,
                int workers, ServerDescription semantics, StepReporterFactory reporters, TrainingState state) {
        ServerConnections connections = held.current();
        CtrProperties c = props.ctr();
        ClickDataSpec spec = new ClickDataSpec(c.fields(), c.vocabulary(), c.zipf(), c.crosses(),
                c.weightSigma(), c.crossSigma(), c.bias(), props.training().seed());
        ClickData train = ClickData.generate(spec, c.trainSize(), 0);
        ClickData test = ClickData.generate(spec, c.testSize(), 1);
        WideDeepModel model = new WideDeepModel(spec.wideIds(), spec.fields(), c.dim(), c.hidden1(), c.hidden2());
        ShardMap shardMap = ShardMap.compute(model.params(), connections.size());
        DenseClient dense = new DenseClient(connections, shardMap, rank, props.servers().requestTimeout(),
                TensorChunker.DEFAULT_CHUNK_BYTES);
        SparseClient sparse = sparseClient(connections, rank);
        List<io.jvmps.common.sparse.SparseTableStatus> declared = declareTables(
                new ControlClient(connections, rank, props.servers().requestTimeout()), spec);
        log.info(String.format(Locale.ROOT, "Table %s declared: %d rows of dim %d (%.1f MB of values) in the vocabulary; "
                        + "held now on the servers: %s", DEEP_TABLE, spec.distinctValues(), c.dim(),
                spec.distinctValues() * c.dim() * 4 / 1e6, declared.stream().map(t -> String.format(Locale.ROOT,
                        "%d rows / %.1f MB", t.rows(), t.bytes() / 1e6)).toList()));
        log.info(String.format(Locale.ROOT, "CTR job: %d fields x %d values (Zipf %.2f), %d crosses, %d train / %d test "
                        + "examples, click rate %.3f, oracle test AUC %.4f; wide-and-deep dim %d, hidden %d-%d, "
                        + "vocab_cache_size %d", spec.fields(), spec.vocabulary(), spec.zipf(), spec.crosses(),
                train.size(), test.size(), train.clickRate(), test.oracleAuc(), c.dim(), c.hidden1(),
                c.hidden2(), c.vocabCacheSize()));
        state.phase(TrainingState.Phase.INITIALIZING);
        long jobUpdates = io.jvmps.client.control.JobUpdates.of(semantics.mode(),
                Steps.wholeJob(null, train.size(), workers, rank, props.training()), workers);
        // servers with a checkpoint restore it here (the tables at their declaration)
        long restored = ControlClient.alongside(dense).declareDense(shardMap.params(), jobUpdates);
        if (restored > 0) {
            log.info("The servers restored a checkpoint at step {}: resuming the schedule there", restored);
        }
        io.jvmps.client.data.DenseSeeding.seedOrAwait(dense, model.initialParams(props.training().seed()), rank,
                props.servers().waitTimeout(), clock);
        long start = StepJoiner.scheduleStep(ControlClient.alongside(dense), clock, semantics, nodeId, restored, props.servers().requestTimeout());
        ServerRecovery recovery = new ServerRecovery(reconnect, next -> new DenseClient(next, shardMap, rank,
                props.servers().requestTimeout(), TensorChunker.DEFAULT_CHUNK_BYTES), () -> model.initialParams(props.training().seed()),
                rank, props.servers().recoveryTimeout(), clock, semantics.mode(),
                ServerRecovery.joinAgain(clock, semantics, nodeId, props.servers().requestTimeout()),
                next -> declareTables(new ControlClient(next, rank, props.servers().requestTimeout()), spec))
                .declaringJobUpdates(jobUpdates);
        recovery.joined(); // the schedule step above joined this worker
        ExecutorService prefetch = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "embedding-store");
            t.setDaemon(true);
            return t;
        });
        TrainingSummary summary = null;
        try {
            while (summary == null) {
                LoopSettings settings = LoopSettings.of(props.training(), start);
                EmbeddingLookup wide = lookup(sparse, WIDE_TABLE, 1, semantics, prefetch);
                EmbeddingLookup deep = lookup(sparse, DEEP_TABLE, c.dim(), semantics, prefetch);
                state.phase(TrainingState.Phase.TRAINING);
                try {
                    summary = new CtrLoop(model, train, wide, deep, dense, settings, rank, workers,
                            reporters.create(dense)).run();
                    wide.close();
                    deep.close();
                    logCache(WIDE_TABLE, wide.stats());
                    logCache(DEEP_TABLE, deep.stats());
                } catch (PsException e) {
                    if (!recovery.recovers(e)) {
                        writeBackOnStop(wide, deep, e); // the job ends: keep what the caches learnt
                    }
                    ServerRecovery.Resumed resumed = recovery.resumeAfter(e, held, () -> {
                        state.phase(TrainingState.Phase.RECOVERING);
                        log.warn("Lost the servers' state ({}); recovering from their newest checkpoint. The "
                                + "embedding caches' rows are dropped unwritten: they belong to steps the servers "
                                + "roll back", e.getMessage());
                    });
                    dense = resumed.client();
                    sparse = sparseClient(resumed.connections(), rank);
                    start = resumed.step();
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
        if (!props.output().parametersDir().isBlank()) {
            int[] all = java.util.stream.IntStream.range(0, train.size()).toArray();
            java.nio.file.Path dir = java.nio.file.Path.of(props.output().parametersDir(), "worker-" + rank);
            TableExport.write(dir, sparse, WIDE_TABLE, 1, train.wideIds(all));
            TableExport.write(dir, sparse, DEEP_TABLE, c.dim(), train.deepIds(all));
            log.info("Exported the tables' rows of every training id to {}", dir);
        }
        return new Outcome(summary, evaluation);
    }

    private SparseClient sparseClient(ServerConnections connections, int rank) {
        return new SparseClient(connections, rank, props.servers().requestTimeout(), SPARSE_FRAME_BYTES);
    }

    /** Declares the wide and deep tables (idempotent); returns the deep table's status on each server. */
    private List<io.jvmps.common.sparse.SparseTableStatus> declareTables(ControlClient control,
                                                                                  ClickDataSpec spec) {
        CtrProperties c = props.ctr();
        String optimizer = c.tableOptimizer().isBlank() ? null : c.tableOptimizer();
        control.declareSparse(new SparseTableSpec(WIDE_TABLE, 1, props.training().seed(), 0f, optimizer));
        long initRows = c.initInServer() ? spec.distinctValues() : 0;
        return control.declareSparse(new SparseTableSpec(DEEP_TABLE, c.dim(), props.training().seed() + 1, c.initScale(),
                optimizer, initRows));
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

    /** Makes the step reporter for the loop, around the dense client whose bytes it reports. */
    @FunctionalInterface
    public interface StepReporterFactory {
        StepReporter create(DenseClient dense);
    }
}
