package io.jvmps.worker.train.table;

import io.jvmps.worker.train.JobClocks;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.worker.train.schedule.DynamicSchedule;
import io.jvmps.worker.train.schedule.LoopSettings;
import io.jvmps.worker.train.schedule.Steps;
import io.jvmps.worker.train.schedule.StepPlan;
import io.jvmps.client.control.ControlClient;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.control.StepJoiner;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.data.DenseSeeding;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.SparseBatch;
import io.jvmps.client.transport.ConnectionHolder;
import io.jvmps.client.transport.ServerConnections;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.ShardMap;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.ctr.DirectLookup;
import io.jvmps.worker.export.ExportManifest;
import io.jvmps.worker.export.ModelExporter;
import io.jvmps.worker.linear.SparseSoftmax;
import io.jvmps.worker.model.SoftmaxRegression;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * A worker's sparse linear job ({@code ps.worker.job=SPARSE_LINEAR}) once the servers answer: softmax
 * regression on LibSVM data whose weights live in the sparse table {@value #TABLE} (one row of
 * {@code classes} weights per feature column, created on first use with zeros) and whose bias is the dense
 * parameter {@value #BIAS}. Declares both, trains with {@link SparseLinearLoop} (recovering from a lost
 * server like the other jobs), scores this worker's shard of the test file, and writes the model as the
 * dense {@code SOFTMAX} graph ({@code W [features, classes]} from the table's rows, {@code b} from the
 * bias), so {@code predict --data=LIBSVM} reads it like any export. Training thread only.
 */
public class SparseLinearJob {
    /** The weight table's name. */
    static final String TABLE = "linear.weights";
    /** The dense bias's name. */
    static final String BIAS = "linear.bias";
    private static final Logger log = LoggerFactory.getLogger(SparseLinearJob.class);
    private static final int SPARSE_FRAME_BYTES = 1 << 20;
    private static final int EXPORT_ROWS_PER_PULL = 16_384;

    private final WorkerProperties props;
    private final JobClocks clocks;
    private final LibSvmFile train;
    private final SparseSoftmax model;
    private final ShardMap shardMap;
    private final int rank;
    private DenseClient dense;
    private SparseClient sparse;

    /** @param train the training file (its feature count is the exported model's input width) */
    public SparseLinearJob(WorkerProperties props, JobClocks clocks, LibSvmFile train, int rank, int servers) {
        this.props = props;
        this.clocks = clocks;
        this.train = train;
        this.rank = rank;
        this.model = new SparseSoftmax(train.numClasses());
        this.shardMap = ShardMap.compute(List.of(new ParamSpec(BIAS, new long[]{train.numClasses()})), servers);
    }

    /**
     * What the job measured on this worker's shard of the test file.
     *
     * @param correct  test examples classified correctly
     * @param examples test examples scored
     */
    public record Outcome(TrainingSummary summary, long correct, int examples) {
    }

    /**
     * @param held      the connections to the servers, replaced after a recovery
     * @param reconnect waits (up to the given time) until every server is alive and reachable again
     * @param leased    the dynamic schedule (kept across recoveries), or null for this rank's static shard
     */
    public Outcome run(ConnectionHolder held, Function<Duration, ServerConnections> reconnect, String nodeId, int workers,
                ServerDescription semantics, LibSvmFile test, DynamicSchedule leased,
                CtrJob.StepReporterFactory reporters, TrainingState state) {
        ServerConnections connections = held.current();
        dense = denseClient(connections);
        sparse = sparseClient(connections);
        declareTable(connections);
        log.info(String.format(Locale.ROOT, "Sparse linear job: %d training and %d test examples, %d features, "
                        + "%d classes; table %s holds a row of %d weights per feature used", train.size(), test.size(),
                train.featureSize(), train.numClasses(), TABLE, train.numClasses()));
        state.phase(TrainingState.Phase.INITIALIZING);
        long jobUpdates = io.jvmps.client.control.JobUpdates.of(semantics.mode(),
                Steps.wholeJob(leased, train.size(), workers, rank, props.training()), workers);
        long restored = ControlClient.alongside(dense).declareDense(shardMap.params(), jobUpdates);
        if (restored > 0) {
            log.info("The servers restored a checkpoint at step {}: resuming the schedule there", restored);
        }
        DenseSeeding.seedOrAwait(dense, initialBias(), rank, props.servers().waitTimeout(), clocks.deadlines());
        long start = StepJoiner.scheduleStep(ControlClient.alongside(dense), clocks.deadlines(), semantics, nodeId, restored,
                props.servers().requestTimeout());
        ServerRecovery recovery = new ServerRecovery(reconnect, this::denseClient, this::initialBias, rank,
                props.servers().recoveryTimeout(), clocks.deadlines(), semantics.mode(),
                ServerRecovery.joinAgain(clocks.deadlines(), semantics, nodeId, props.servers().requestTimeout()), this::declareTable)
                .declaringJobUpdates(jobUpdates);
        recovery.joined();
        TrainingSummary summary = null;
        while (summary == null) {
            LoopSettings settings = LoopSettings.of(props.training(), start);
            state.phase(TrainingState.Phase.TRAINING);
            try {
                StepPlan plan = leased == null ? StepPlan.fixed(train.size(), workers, rank, settings)
                        : leased.plan(start);
                summary = new SparseLinearLoop(model, train, new DirectLookup(sparse, TABLE, model.classes()), dense,
                        settings, plan, reporters.create(dense, nodeId)).run();
            } catch (PsException e) {
                ServerRecovery.Resumed resumed = recovery.resumeAfter(e, held, () -> {
                    state.phase(TrainingState.Phase.RECOVERING);
                    log.warn("Lost the servers' state ({}); recovering from their newest checkpoint", e.getMessage());
                });
                dense = resumed.client();
                sparse = sparseClient(resumed.connections());
                start = resumed.step();
            }
        }
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s; pull+lookup %.1f s, "
                        + "compute %.1f s, push %.1f s); sparse pushed %d bytes, pulled %d bytes",
                summary.steps(), summary.seconds(), summary.samplesPerSecond(), summary.pullSeconds(),
                summary.computeSeconds(), summary.pushSeconds(), sparse.bytesPushed(), sparse.bytesPulled()));
        state.phase(TrainingState.Phase.EVALUATING);
        if (rank >= workers) {
            log.info("No test shard for scale-out worker rank {} (the test set is split among the {} workers of "
                    + "ps.cluster.worker-num)", rank, workers);
            return new Outcome(summary, 0, 0);
        }
        IndexRange range = EpochBatches.shardRange(test.size(), workers, rank);
        // in SYNC, wait for every worker's last bias push (each worker's sparse pushes of a step are acknowledged
        // before its bias push), so this evaluation sees the rows and bias the job ended on, as the export does
        long finalVersion = semantics.mode() == io.jvmps.common.protocol.ConsistencyMode.SYNC ? summary.steps() : 0;
        long correct = correct(test, range, finalVersion);
        log.info(String.format(Locale.ROOT, "Test accuracy on this worker's shard [%d, %d): %.4f (%d/%d)",
                range.from(), range.to(), (double) correct / Math.max(1, range.size()), correct, range.size()));
        return new Outcome(summary, correct, range.size());
    }

    /**
     * Writes the servers' current model as the dense {@code SOFTMAX} graph: every feature's table row
     * (zeros for a feature no step has used) and the bias.
     *
     * @param dir      the export folder
     * @param test     the test file the manifest's accuracy is measured on
     * @param manifest the manifest without the test result and time
     */
    public ExportManifest export(Path dir, LibSvmFile test, ExportManifest manifest) {
        int features = train.featureSize();
        int classes = model.classes();
        float[] weights = new float[Math.multiplyExact(features, classes)];
        for (int from = 0; from < features; from += EXPORT_ROWS_PER_PULL) {
            long[] ids = LongStream.range(from, Math.min(features, from + EXPORT_ROWS_PER_PULL)).toArray();
            float[] rows = new float[ids.length * classes];
            sparse.pull(TABLE, classes, ids, rows);
            System.arraycopy(rows, 0, weights, from * classes, rows.length);
        }
        INDArray[] bias = {Nd4j.create(DataType.FLOAT, classes)};
        dense.pull(0, bias);
        SoftmaxRegression exported = new SoftmaxRegression(features, classes);
        exported.setParam(SoftmaxRegression.WEIGHTS, Nd4j.create(weights, new long[]{features, classes},
                DataType.FLOAT));
        exported.setParam(SoftmaxRegression.BIAS, bias[0].reshape(exported.param(SoftmaxRegression.BIAS).shape()));
        return new ModelExporter(dir, clocks.wall()).export(exported, test, props.training().evalBatchSize(), manifest);
    }

    /** @param minVersion the bias version to wait for before reading the model (0: whatever the servers hold) */
    private long correct(LibSvmFile test, IndexRange range, long minVersion) {
        DirectLookup lookup = new DirectLookup(sparse, TABLE, model.classes());
        INDArray[] bias = {Nd4j.create(DataType.FLOAT, model.classes())};
        dense.pull(minVersion, bias);
        float[] b = bias[0].toFloatVector();
        long correct = 0;
        int batchSize = props.training().evalBatchSize();
        for (int from = range.from(); from < range.to(); from += batchSize) {
            int[] examples = IntStream.range(from, Math.min(range.to(), from + batchSize)).toArray();
            SparseBatch batch = test.gatherSparse(examples);
            float[] rows = batch.nonZeros() == 0 ? new float[0] : lookup.lookup(batch.ids());
            int[] predicted = model.predict(batch, rows, b);
            for (int r = 0; r < predicted.length; r++) {
                correct += predicted[r] == batch.labels()[r] ? 1 : 0;
            }
        }
        return correct;
    }

    private INDArray[] initialBias() {
        return new INDArray[]{Nd4j.create(DataType.FLOAT, model.classes())};
    }

    private void declareTable(ServerConnections connections) {
        new ControlClient(connections, rank, props.servers().requestTimeout())
                .declareSparse(new SparseTableSpec(TABLE, model.classes(), props.training().seed(), 0f, null));
    }

    private DenseClient denseClient(ServerConnections connections) {
        return new DenseClient(connections, shardMap, rank, props.servers().requestTimeout(),
                TensorChunker.DEFAULT_CHUNK_BYTES);
    }

    private SparseClient sparseClient(ServerConnections connections) {
        return new SparseClient(connections, rank, props.servers().requestTimeout(), SPARSE_FRAME_BYTES);
    }
}
