package io.jvmps.worker.train.progress;

/**
 * What every training loop counts while it runs: the global step it is at (from the step it started or resumed
 * at), the samples it trained on and the last step's loss, with the phase times; each finished step is reported
 * through the {@link StepReporter}, and the summary comes from here. Not thread-safe: owned by the training thread.
 */
public final class StepTally {
    private final StepReporter reporter;
    private final PhaseTimes times;
    private final long total;
    private long global;
    private long samples;
    private double loss = Double.NaN;

    /**
     * @param start the global step the loop starts (or resumes) at
     * @param total the global step the loop ends at
     */
    public StepTally(StepReporter reporter, long start, long total) {
        this.reporter = reporter;
        this.times = reporter.phaseTimes();
        this.global = start;
        this.total = total;
    }

    /** @return the loop's phase times */
    public PhaseTimes times() {
        return times;
    }

    /** @return the global number of the step under way (of the next one between steps) */
    public long global() {
        return global;
    }

    /** @return the global step the loop ends at */
    public long total() {
        return total;
    }

    /** Counts a finished step of {@code samples} examples with its loss, and reports it. */
    public void stepDone(int epoch, int step, double stepLoss, int stepSamples) {
        global++;
        loss = stepLoss;
        samples += stepSamples;
        reporter.stepDone(epoch, step, global, total, stepLoss, stepSamples);
    }

    /** @return the loop's summary: steps reached, last loss, samples, time per phase */
    public TrainingSummary summary() {
        return times.summary(global, loss, samples);
    }
}
