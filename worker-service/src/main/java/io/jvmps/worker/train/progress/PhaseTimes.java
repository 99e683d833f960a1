package io.jvmps.worker.train.progress;

/**
 * Wall time a training loop spends pulling, computing and pushing, and the loop's summary. A
 * phase runs from the last {@link #lap()} or phase end to its own end; each phase is also reported to the {@link TrainingMeters}. Not thread-safe: owned by
 * the training thread.
 */
public final class PhaseTimes {
    private final TrainingMeters meters;
    private final long start = System.nanoTime();
    private long last = start;
    private long pull;
    private long compute;
    private long push;

    public PhaseTimes(TrainingMeters meters) {
        this.meters = meters;
    }

    /** Starts timing the next phase now (time since the previous mark is not counted). */
    public void lap() {
        last = System.nanoTime();
    }

    public void pullDone() {
        pull += elapsed(TrainingMeters.Phase.PULL);
    }

    public void computeDone() {
        compute += elapsed(TrainingMeters.Phase.COMPUTE);
    }

    public void pushDone() {
        push += elapsed(TrainingMeters.Phase.PUSH);
    }

    public TrainingSummary summary(long steps, double lastLoss, long samples) {
        return new TrainingSummary(steps, lastLoss, (System.nanoTime() - start) / 1e9, samples, pull / 1e9,
                compute / 1e9, push / 1e9);
    }

    private long elapsed(TrainingMeters.Phase phase) {
        long now = System.nanoTime();
        long spent = now - last;
        last = now;
        meters.phase(phase, spent);
        return spent;
    }
}
