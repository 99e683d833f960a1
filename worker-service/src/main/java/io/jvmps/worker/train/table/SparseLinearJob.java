package io.jvmps.worker.train.table;

import io.jvmps.worker.train.JobClocks;
import io.jvmps.worker.train.progress.StepReporterFactory;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.DynamicSchedule;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.schedule.StepPlan;
import io.jvmps.client.PsJob;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.IndexRange;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.SparseBatch;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.sharding.ParamSpec;
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
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * A worker's sparse linear job ({@code ps.worker.job=SPARSE_LINEAR}) in a job joined through {@link PsJob}: softmax
 * regression on LibSVM data whose weights live in the sparse table {@value #TABLE} (one row of
 * {@code classes} weights per feature column, created on first use with zeros) and whose bias is the dense
 * parameter {@value #BIAS}. Declares both through the job, trains with {@link SparseLinearLoop} (recovering
 * from a lost server through the job, as any program on the library does), scores this worker's shard of the test file, and writes the model as the
 * dense {@code SOFTMAX} graph ({@code W [features, classes]} from the table's rows, {@code b} from the
 * bias), so {@code predict --data=LIBSVM} reads it like any export. Training thread only.
 */
public class SparseLinearJob {
    /** The weight table's name. */
    static final String TABLE = "linear.weights";
    /** The dense bias's name. */
    static final String BIAS = "linear.bias";
    private static final Logger log = LoggerFactory.getLogger(SparseLinearJob.class);
    private static final int EXPORT_ROWS_PER_PULL = 16_384;

    private final WorkerProperties props;
    private final JobClocks clocks;
    private final LibSvmFile train;
    private final SparseSoftmax model;
    private final PsJob job;
    private final int rank;
    private DenseClient dense;
    private SparseClient sparse;

    /**
     * @param train the training file (its feature count is the exported model's input width)
     * @param job   the joined job this worker trains in
     */
    public SparseLinearJob(WorkerProperties props, JobClocks clocks, LibSvmFile train, PsJob job) {
        this.props = props;
        this.clocks = clocks;
        this.train = train;
        this.job = job;
        this.rank = job.rank();
        this.model = new SparseSoftmax(train.numClasses());
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
     * @param leased the dynamic schedule (kept across recoveries), or null for this rank's static shard
     */
    public Outcome run(LibSvmFile test, DynamicSchedule leased, StepReporterFactory reporters,
                       TrainingState state) {
        int workers = job.workers();
        ServerDescription semantics = job.semantics();
        job.declareTables(List.of(new SparseTableSpec(TABLE, model.classes(), props.training().seed(), 0f, null)));
        log.info(String.format(Locale.ROOT, "Sparse linear job: %d training and %d test examples, %d features, "
                        + "%d classes; table %s holds a row of %d weights per feature used", train.size(), test.size(),
                train.featureSize(), train.numClasses(), TABLE, train.numClasses()));
        state.phase(TrainingState.Phase.INITIALIZING);
        // servers with a checkpoint restore it at the dense declaration (the table with it)
        PsJob.DenseStart declared = job.declareDense(List.of(new ParamSpec(BIAS, new long[]{model.classes()})),
                new INDArray[]{Nd4j.create(DataType.FLOAT, model.classes())},
                Steps.wholeJob(leased, train.size(), workers, rank, props.training().loop(0)));
        if (declared.startStep() > 0) {
            log.info("Resuming the schedule at step {}", declared.startStep());
        }
        dense = declared.client();
        sparse = job.sparse();
        long start = declared.startStep();
        TrainingSummary summary = null;
        while (summary == null) {
            LoopSettings settings = props.training().loop(start);
            state.phase(TrainingState.Phase.TRAINING);
            try {
                StepPlan plan = leased == null ? StepPlan.fixed(train.size(), workers, rank, settings)
                        : leased.plan(start);
                summary = new SparseLinearLoop(model, train, new DirectLookup(sparse, TABLE, model.classes()), dense,
                        settings, plan, reporters.create(dense, job.nodeId())).run();
            } catch (PsException e) {
                var resumed = job.resume(declared, e, () -> {
                    state.phase(TrainingState.Phase.RECOVERING);
                    log.warn("Lost the servers' state ({}); recovering from their newest checkpoint", e.getMessage());
                });
                dense = resumed.client();
                sparse = job.sparse();
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
}
