package io.jvmps.worker.train.table;

import io.jvmps.client.PsJob;
import io.jvmps.client.dataset.LabelKind;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.LibSvmIds;
import io.jvmps.client.train.EmbeddingTable;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.SameDiffGraph;
import io.jvmps.client.train.SameDiffTrainer;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.export.ExportManifest;
import io.jvmps.worker.export.ModelExporter;
import io.jvmps.worker.model.SoftmaxRegression;
import io.jvmps.worker.train.JobClocks;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.LongStream;

/**
 * A worker's sparse linear job ({@code ps.worker.job=SPARSE_LINEAR}) in a job joined through {@link PsJob}: softmax
 * regression on LibSVM data as a built-in SameDiff graph trained by the library's {@link SameDiffTrainer}, like any
 * model file with a table. Its weights are the table {@value #TABLE} (one row of {@code classes} weights per feature
 * column, zeros until a push first touches it: the features a file never lists have no row) looked up with the
 * files' features ({@link LibSvmIds}), its bias the dense parameter {@value #BIAS}. The trainer declares both,
 * trains on a static shard or leased partitions and recovers a lost server; this job scores the worker's shard of the
 * test file and writes the model as the dense {@code SOFTMAX} graph ({@code W [features, classes]} from the table's
 * rows, {@code b} from the bias), so {@code predict --data=LIBSVM} reads it like any export. Training thread only.
 */
public class SparseLinearJob {
    /** The weight table's name. */
    static final String TABLE = "linear.weights";
    /** The dense bias's name. */
    static final String BIAS = "linear.bias";
    /** The graph's id placeholder: the files' feature ids ({@code x_values} beside it). */
    static final String IDS = "x";
    private static final Logger log = LoggerFactory.getLogger(SparseLinearJob.class);
    private static final int EXPORT_ROWS_PER_PULL = 16_384;

    private final WorkerProperties props;
    private final JobClocks clocks;
    private final LibSvmFile train;
    private final PsJob job;
    private final SameDiffTrainer trainer;

    /**
     * @param train the training file (its feature count is the table's and the exported model's input width)
     * @param job   the joined job this worker trains in
     */
    public SparseLinearJob(WorkerProperties props, JobClocks clocks, LibSvmFile train, PsJob job) {
        this.props = props;
        this.clocks = clocks;
        this.train = train;
        this.job = job;
        this.trainer = new SameDiffTrainer(job, graph(train.featureSize(), train.numClasses(), props.training().seed()))
                .maxSteps(props.training().maxSteps());
    }

    /**
     * The built-in graph: {@code logits = sum over a row's features of gather(weights, x) * x_values + bias}, softmax
     * prediction, mean cross-entropy loss.
     */
    static SameDiffGraph graph(int features, int classes, long seed) {
        SameDiff sd = SameDiff.create();
        SDVariable ids = sd.placeHolder(IDS, DataType.INT64, -1, -1);
        SDVariable values = sd.placeHolder(IDS + "_values", DataType.FLOAT, -1, -1);
        SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, classes);
        SDVariable weights = sd.var(TABLE, Nd4j.zeros(DataType.FLOAT, features, classes));
        SDVariable bias = sd.var(BIAS, Nd4j.zeros(DataType.FLOAT, 1, classes));
        SDVariable logits = sd.gather(weights, ids, 0).mul(sd.expandDims(values, 2)).sum(1).add(bias); // [n, k]
        sd.nn().softmax("prediction", logits, 1);
        sd.loss().softmaxCrossEntropy("loss", label, logits, null,
                org.nd4j.autodiff.loss.LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);
        return SameDiffGraph.withTables(sd, new GraphNames("input", "label", "loss", "prediction"),
                "the sparse linear job's softmax", EmbeddingTable.of(TABLE).withInit(0f, seed));
    }

    /**
     * What the job measured.
     *
     * @param steps    steps this worker trained
     * @param seconds  training time
     * @param correct  test examples of this worker's shard classified correctly
     * @param examples test examples scored (0 for a scale-out rank, which has no shard)
     */
    public record Outcome(long steps, double seconds, long correct, int examples) {
    }

    /**
     * Trains and scores this worker's shard of {@code test}.
     *
     * @param partitions partitions per epoch leased from the scheduler, or 0 for this rank's static shard
     */
    public Outcome run(LibSvmFile test, int partitions) {
        log.info(String.format(Locale.ROOT, "Sparse linear job: %d training and %d test examples, %d features, "
                        + "%d classes; table %s holds a row of %d weights per feature used", train.size(), test.size(),
                train.featureSize(), train.numClasses(), TABLE, train.numClasses()));
        LibSvmIds examples = LibSvmIds.of(train, IDS, LabelKind.CLASS);
        var training = props.training();
        SameDiffTrainer.Result result = partitions > 0
                ? trainer.fitLeased(examples, training.batchSize(), training.epochs(), training.seed(), partitions)
                : trainer.fit(examples, training.batchSize(), training.epochs(), training.seed());
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (%.1f samples/s), last loss %.6f",
                result.steps(), result.seconds(), result.examples() / Math.max(1e-9, result.seconds()),
                result.lastLoss()));
        if (job.rank() >= job.workers()) {
            log.info("No test shard for scale-out worker rank {} (the test set is split among the {} workers of "
                    + "ps.cluster.worker-num)", job.rank(), job.workers());
            return new Outcome(result.steps(), result.seconds(), 0, 0);
        }
        SameDiffTrainer.Evaluation scored = trainer.evaluateShard(LibSvmIds.of(test, IDS, LabelKind.CLASS));
        log.info(String.format(Locale.ROOT, "Test accuracy on this worker's shard: %.4f (%d/%d)", scored.accuracy(),
                scored.correct(), scored.examples()));
        return new Outcome(result.steps(), result.seconds(), scored.correct(), (int) scored.examples());
    }

    /**
     * Writes the model as the dense {@code SOFTMAX} graph: every feature's table row as the servers hold it now
     * (zeros for a feature no step has used) and the bias.
     *
     * @param latest   pull the servers' bias first (the final export, once every worker has reported); otherwise
     *                 the bias this worker's last step computed with (an export asked for while it trains)
     * @param dir      the export folder
     * @param test     the test file the manifest's accuracy is measured on
     * @param manifest the manifest without the test result and time
     */
    public ExportManifest export(boolean latest, Path dir, LibSvmFile test, ExportManifest manifest) {
        if (latest) {
            trainer.pullLatest();
        }
        int features = train.featureSize();
        int classes = train.numClasses();
        float[] weights = new float[Math.multiplyExact(features, classes)];
        var sparse = job.sparse();
        for (int from = 0; from < features; from += EXPORT_ROWS_PER_PULL) {
            long[] ids = LongStream.range(from, Math.min(features, from + EXPORT_ROWS_PER_PULL)).toArray();
            float[] rows = new float[ids.length * classes];
            sparse.pull(TABLE, classes, ids, rows);
            System.arraycopy(rows, 0, weights, from * classes, rows.length);
        }
        SoftmaxRegression exported = new SoftmaxRegression(features, classes);
        exported.setParam(SoftmaxRegression.WEIGHTS, Nd4j.create(weights, new long[]{features, classes},
                DataType.FLOAT));
        exported.setParam(SoftmaxRegression.BIAS, trainer.graph().param(BIAS).dup()
                .reshape(exported.param(SoftmaxRegression.BIAS).shape()));
        return new ModelExporter(dir, clocks.wall()).export(exported, test, props.training().evalBatchSize(), manifest);
    }
}
