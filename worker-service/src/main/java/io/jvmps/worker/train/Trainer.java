package io.jvmps.worker.train;

import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.client.PsClient;
import io.jvmps.worker.data.EpochBatches;
import io.jvmps.worker.data.LabeledData;
import io.jvmps.worker.model.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * The data-parallel training loop of one worker: for every step, pull the parameters at the
 * step's version, compute gradients on this worker's batch, push them. Every worker runs the same
 * number of steps with batches of equal size ({@link EpochBatches}), which is what synchronous SGD
 * needs. Not thread-safe: one trainer per worker.
 */
public class Trainer {
    private static final Logger log = LoggerFactory.getLogger(Trainer.class);

    /**
     * @param epochs      passes over the data
     * @param batchSize   samples per step on this worker
     * @param seed        shuffling seed, same on every worker
     * @param logInterval log every this many steps
     * @param maxSteps    stop after this many steps in total (0 = no limit)
     */
    public record Settings(int epochs, int batchSize, long seed, int logInterval, int maxSteps) {
    }

    /**
     * @param steps          steps run
     * @param lastLoss       loss of the last batch
     * @param seconds        wall time of the loop
     * @param samples        samples this worker trained on
     * @param pullSeconds    time spent pulling (including waiting for the other workers in sync mode)
     * @param computeSeconds time spent in forward/backward
     * @param pushSeconds    time spent pushing
     */
    public record Summary(long steps, double lastLoss, double seconds, long samples, double pullSeconds,
                          double computeSeconds, double pushSeconds) {
        /** @return samples per second */
        public double samplesPerSecond() {
            return seconds > 0 ? samples / seconds : 0;
        }
    }

    private final TrainableModel model;
    private final PsClient client;
    private final LabeledData train;
    private final Settings settings;
    private final int rank;
    private final int workers;
    private final TrainingState state;
    private final ProgressReporter progress;
    private final String nodeId;
    private final Clock clock;
    private final INDArray[] params;

    public Trainer(TrainableModel model, PsClient client, LabeledData train, Settings settings, int rank, int workers,
                   TrainingState state, ProgressReporter progress, String nodeId, Clock clock) {
        this.model = model;
        this.client = client;
        this.train = train;
        this.settings = settings;
        this.rank = rank;
        this.workers = workers;
        this.state = state;
        this.progress = progress;
        this.nodeId = nodeId;
        this.clock = clock;
        List<ParamSpec> specs = model.params();
        this.params = new INDArray[specs.size()];
        for (int p = 0; p < specs.size(); p++) {
            params[p] = Nd4j.create(DataType.FLOAT, specs.get(p).shape(), 'c');
        }
    }

    /** @return total steps this worker will run */
    public long totalSteps() {
        long perEpoch = batches(1).stepsPerEpoch();
        long total = perEpoch * settings.epochs();
        return settings.maxSteps() > 0 ? Math.min(total, settings.maxSteps()) : total;
    }

    /** Runs the loop and leaves the model holding the final parameters (version = total steps). */
    public Summary run() {
        long total = totalSteps();
        long global = 0;
        long samples = 0;
        double loss = Double.NaN;
        long start = clock.millis();
        long windowStart = start;
        long windowSamples = 0;
        long pullNanos = 0;
        long computeNanos = 0;
        long pushNanos = 0;
        outer:
        for (int epoch = 1; epoch <= settings.epochs(); epoch++) {
            EpochBatches batches = batches(epoch);
            for (int step = 0; step < batches.stepsPerEpoch(); step++) {
                if (global >= total) {
                    break outer;
                }
                long t0 = System.nanoTime();
                pullIntoModel(global);
                long t1 = System.nanoTime();
                LabeledData batch = train.gather(batches.batchIndices(step));
                StepResult result = model.gradients(batch.features(), batch.labels());
                long t2 = System.nanoTime();
                client.push(global, ordered(result));
                long t3 = System.nanoTime();
                pullNanos += t1 - t0;
                computeNanos += t2 - t1;
                pushNanos += t3 - t2;
                global++;
                loss = result.loss();
                samples += batch.size();
                windowSamples += batch.size();
                if (step == 0 || (step + 1) % settings.logInterval() == 0 || global == total) {
                    long now = clock.millis();
                    double rate = now > windowStart ? windowSamples * 1000.0 / (now - windowStart) : 0;
                    windowStart = now;
                    windowSamples = 0;
                    report(epoch, step + 1, global, total, loss, rate);
                }
            }
        }
        pullIntoModel(global);
        double seconds = (clock.millis() - start) / 1000.0;
        return new Summary(global, loss, seconds, samples, pullNanos / 1e9, computeNanos / 1e9, pushNanos / 1e9);
    }

    private void report(int epoch, int step, long global, long total, double loss, double rate) {
        log.info(String.format(Locale.ROOT, "epoch: %d step: %d, loss is %.6f", epoch, step, loss));
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.TRAINING, s.rank(), s.nodeId(), epoch, step,
                global, total, loss, rate, client.bytesPushed(), client.bytesPulled(), s.accuracy(), s.error()));
        progress.report(new ProgressReport(nodeId, epoch, step, global, loss, rate));
    }

    private void pullIntoModel(long version) {
        client.pull(version, params);
        List<ParamSpec> specs = model.params();
        for (int p = 0; p < specs.size(); p++) {
            model.setParam(specs.get(p).name(), params[p]);
        }
    }

    private INDArray[] ordered(StepResult result) {
        List<ParamSpec> specs = model.params();
        INDArray[] grads = new INDArray[specs.size()];
        for (int p = 0; p < specs.size(); p++) {
            grads[p] = result.gradients().get(specs.get(p).name());
            if (grads[p] == null) {
                throw new IllegalStateException("model produced no gradient for " + specs.get(p).name());
            }
        }
        return grads;
    }

    private EpochBatches batches(int epoch) {
        return new EpochBatches(train.size(), workers, rank, settings.batchSize(), settings.seed(), epoch);
    }
}
