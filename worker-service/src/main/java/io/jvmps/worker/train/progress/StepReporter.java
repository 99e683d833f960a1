package io.jvmps.worker.train.progress;

import io.jvmps.client.control.ProgressReporter;
import io.jvmps.common.protocol.ProgressReport;
import io.jvmps.client.data.DenseClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Locale;

/**
 * Logs {@code epoch: E step: S, loss is L} every {@code logInterval} steps (and the first and last
 * step), updates the live {@link TrainingState} and sends a progress report to the scheduler.
 * Not thread-safe: owned by the training thread.
 */
public final class StepReporter {
    private static final Logger log = LoggerFactory.getLogger(StepReporter.class);

    private final TrainingState state;
    private final ProgressReporter progress;
    private final DenseClient client;
    private final String nodeId;
    private final Clock clock;
    private final int logInterval;
    private final TrainingMeters meters;
    private long lastStepNanos = System.nanoTime();
    private long windowStart;
    private long windowSamples;
    private final java.util.function.LongConsumer stepEnd;

    public StepReporter(TrainingState state, ProgressReporter progress, DenseClient client, String nodeId, Clock clock,
                 int logInterval, TrainingMeters meters) {
        this(state, progress, client, nodeId, clock, logInterval, meters, global -> { });
    }

    /** @param stepEnd runs on the training thread after every step, with the steps done (e.g. a requested export) */
    public StepReporter(TrainingState state, ProgressReporter progress, DenseClient client, String nodeId, Clock clock,
                 int logInterval, TrainingMeters meters, java.util.function.LongConsumer stepEnd) {
        this.stepEnd = stepEnd;
        this.meters = meters;
        this.state = state;
        this.progress = progress;
        this.client = client;
        this.nodeId = nodeId;
        this.clock = clock;
        this.logInterval = logInterval;
        this.windowStart = clock.millis();
    }

    /** @return a stopwatch for a loop's phases that also reports them to the meters */
    public PhaseTimes phaseTimes() {
        return new PhaseTimes(meters);
    }

    /**
     * @param epoch   1-based epoch
     * @param step    0-based step within the epoch
     * @param global  steps completed in total (including this one)
     * @param total   steps the job runs
     * @param loss    this step's loss
     * @param samples samples in this step's batch
     */
    public void stepDone(int epoch, int step, long global, long total, double loss, int samples) {
        long now = System.nanoTime();
        meters.step(now - lastStepNanos, loss, samples);
        windowSamples += samples;
        stepEnd.accept(global);
        lastStepNanos = System.nanoTime();
        if (step != 0 && (step + 1) % logInterval != 0 && global != total) {
            return;
        }
        long millis = clock.millis();
        double rate = millis > windowStart ? windowSamples * 1000.0 / (millis - windowStart) : 0;
        windowStart = millis;
        windowSamples = 0;
        log.info(String.format(Locale.ROOT, "epoch: %d step: %d, loss is %.6f", epoch, step + 1, loss));
        state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.TRAINING, s.rank(), s.nodeId(), epoch,
                step + 1, global, total, loss, rate, client.bytesPushed(), client.bytesPulled(), s.accuracy(),
                s.error()));
        progress.report(new ProgressReport(nodeId, epoch, step + 1, global, loss, rate, client.bytesPushed(),
                client.bytesPulled()));
    }
}
