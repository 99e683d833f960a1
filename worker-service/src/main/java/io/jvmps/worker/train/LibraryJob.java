package io.jvmps.worker.train;

import io.jvmps.client.PsJob;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.dataset.CsvFile;
import io.jvmps.client.dataset.CsvFormat;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabelKind;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.LibSvmIds;
import io.jvmps.worker.config.DataFormat;
import io.jvmps.client.train.SameDiffTrainer;
import io.jvmps.common.metrics.ClickHistogram;
import io.jvmps.worker.model.PlacementMode;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.model.LibraryGraph;
import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The stock worker's job for a model file the library trains ({@link LibraryGraph}): it joins through
 * {@link PsJob} and trains with {@link SameDiffTrainer}, exactly as a user's own program on the library does (the
 * declare, seed, join, table and recovery sequence is the library's), reading the CSV files with the columns and
 * label kind of {@code ps.worker.dataset.csv.*}, or LibSVM files whose features feed the graph's one table lookup
 * ({@link LibSvmIds}; a label placeholder of width 1 makes the labels clicks), on a static shard or on partitions
 * leased from the scheduler ({@code ps.worker.dataset.sharding=DYNAMIC}). It scores this worker's test shard by the label's kind (accuracy,
 * RMSE and MAE, or AUC and log loss), reports it, and on rank 0 writes the trained graph to
 * {@code ps.worker.output.model-dir}/model.sd (a hashed table's rows beside it). Not thread-safe: one run.
 */
public final class LibraryJob {
    private static final Logger log = LoggerFactory.getLogger(LibraryJob.class);

    private final WorkerProperties props;
    private final LibraryJoin join;
    private final TrainingState state;
    private final TrainingMeters meters;

    /** @param join how this worker joins a job through the library */
    public LibraryJob(WorkerProperties props, LibraryJoin join, TrainingState state, TrainingMeters meters) {
        this.props = props;
        this.join = join;
        this.state = state;
        this.meters = meters;
    }

    /**
     * Runs the whole job; the session is the job's from here (closed when it ends).
     *
     * @param session  the worker's scheduler session, not yet registered
     * @param httpPort this worker's HTTP port, shown in the cluster view
     * @throws io.jvmps.common.protocol.PsException what the library throws: the job is left as failed first
     */
    public void run(SchedulerSession session, int httpPort, LibraryGraph model) {
        Examples train;
        Examples test;
        LabelKind labels;
        if (props.dataset().format() == DataFormat.LIBSVM) {
            // the graph's one id placeholder takes the features; its label's width says classes or clicks
            labels = model.labelWidth() == 1 ? LabelKind.BINARY : LabelKind.CLASS;
            LibSvmFile trainFile = LibSvmFile.open(Path.of(props.dataset().trainFile()), props.dataset().numFeatures(),
                    props.dataset().numClasses());
            train = LibSvmIds.of(trainFile, model.idInputs().get(0), labels);
            test = LibSvmIds.of(LibSvmFile.open(Path.of(props.dataset().testFile()), trainFile.featureSize(),
                    trainFile.numClasses()), model.idInputs().get(0), labels);
        } else {
            CsvFormat format = props.dataset().csv().format();
            labels = props.dataset().csv().labelKind();
            train = CsvFile.open(Path.of(props.dataset().trainFile()), format, props.dataset().numClasses());
            test = CsvFile.open(Path.of(props.dataset().testFile()), format, props.dataset().numClasses());
        }
        meters.skippedRows("train", train.skippedRows());
        meters.skippedRows("test", test.skippedRows());
        join.run(session, httpPort, job -> {
            train(job, model, train, test, labels);
            return null;
        });
    }

    private void train(PsJob job, LibraryGraph model, Examples train, Examples test, LabelKind labels) {
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.TRAINING, job.rank(), job.nodeId(), 0, 0, 0,
                0, Double.NaN, 0, 0, 0, Double.NaN, null));
        // the worker's status page and metrics follow the trainer's steps
        io.jvmps.worker.train.progress.TrainerProgress.follow(job, state, meters, props.training().logInterval(),
                props.training().stepDelay());
        SameDiffTrainer trainer = new SameDiffTrainer(job, model.graph()).maxSteps(props.training().maxSteps());
        if (props.placement() == PlacementMode.HYBRID) {
            trainer.placeOnWorkers(props.localParams().toArray(String[]::new));
        }
        var graphProps = props.graph();
        if (graphProps.cacheRows() > 0) {
            double rate = graphProps.cacheLearningRate() > 0 ? graphProps.cacheLearningRate()
                    : job.semantics().learningRate();
            for (String table : trainer.graph().tables().variables()) {
                trainer.cacheTable(table, graphProps.cacheRows(), graphProps.cacheEviction(), rate,
                        graphProps.cacheRefreshSteps());
            }
            io.jvmps.worker.train.progress.TrainerProgress.followCaches(trainer, meters,
                    trainer.graph().tables().variables());
            log.info("Embedding cache on: {} rows of each table, {} eviction, local SGD at rate {}, refreshed every {} "
                    + "steps", graphProps.cacheRows(), graphProps.cacheEviction(), rate, graphProps.cacheRefreshSteps());
        }
        log.info("Worker rank {} of {} trains {} with the library trainer: {} training and {} test rows, tables {}",
                job.rank(), job.workers(), model.name(), train.size(), test.size(),
                trainer.graph().tables().variables());
        SameDiffTrainer.Result result;
        try {
            result = props.dataset().sharding() == io.jvmps.worker.config.DataSharding.DYNAMIC
                    ? trainer.fitLeased(train, props.training().batchSize(), props.training().epochs(),
                            props.training().seed(), props.dataset().partitions())
                    : trainer.fit(train, props.training().batchSize(), props.training().epochs(),
                            props.training().seed());
        } finally {
            io.jvmps.worker.train.progress.CacheLog.log(trainer.cacheStats()); // after a stop too
        }
        log.info(String.format(Locale.ROOT, "Training finished: %d steps in %.1f s (pull+wait %.1f s, compute %.1f s, "
                        + "push %.1f s), last loss %.6f", result.steps(), result.seconds(), result.phases().pullSeconds(),
                result.phases().computeSeconds(), result.phases().pushSeconds(), result.lastLoss()));
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.EVALUATING, s.rank(), s.nodeId(), s.epoch(),
                s.step(), result.steps(), result.steps(), result.lastLoss(), s.samplesPerSecond(), s.bytesPushed(),
                s.bytesPulled(), Double.NaN, null));
        double accuracy = score(job, trainer, test, result.seconds(), labels);
        state.update(s -> new TrainingState.Snapshot(s.phase(), s.rank(), s.nodeId(), s.epoch(), s.step(),
                s.globalStep(), s.totalSteps(), s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(),
                accuracy, null));
        String modelDir = props.output().modelDir();
        if (job.rank() == 0 && !modelDir.isBlank()) {
            Path file = Path.of(modelDir, "model.sd");
            try {
                Files.createDirectories(file.getParent());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot create ps.worker.output.model-dir " + modelDir, e);
            }
            trainer.save(file);
            log.info("Wrote the trained model to {}", file);
        }
    }

    /** Scores this worker's test shard by the label's kind and reports it; returns the accuracy, or NaN. */
    private double score(PsJob job, SameDiffTrainer trainer, Examples test, double seconds, LabelKind labels) {
        switch (labels) {
            case REAL -> {
                SameDiffTrainer.Regression r = trainer.evaluateRegressionShard(test);
                log.info(String.format(Locale.ROOT, "Test RMSE on this worker's shard: %.4f, MAE %.4f (%d targets, "
                        + "squared error %.6f)", r.rmse(), r.mae(), r.targets(), r.squaredError()));
                job.reportRegression(r.squaredError(), r.absoluteError(), r.targets(), seconds);
                return Double.NaN;
            }
            case BINARY -> {
                ClickHistogram clicks = trainer.evaluateClicksShard(test);
                log.info(String.format(Locale.ROOT, "Test AUC on this worker's shard: %.4f, log loss %.4f (%d examples)",
                        clicks.auc(), clicks.logLoss(), clicks.examples()));
                job.reportClicks(clicks, seconds);
                return clicks.examples() == 0 ? Double.NaN : (double) clicks.correct() / clicks.examples();
            }
            default -> {
                SameDiffTrainer.Evaluation e = trainer.evaluateShard(test);
                log.info(String.format(Locale.ROOT, "Test accuracy on this worker's shard: %.4f (%d/%d)",
                        e.accuracy(), e.correct(), e.examples()));
                job.reportResult(e.correct(), e.examples(), seconds);
                return e.accuracy();
            }
        }
    }
}
