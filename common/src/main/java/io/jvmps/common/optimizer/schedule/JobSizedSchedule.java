package io.jvmps.common.optimizer.schedule;

/**
 * A cosine decay whose length is the job's ({@link JobLength}), for {@code ps.optimizer.schedule=COSINE} without
 * {@code total-steps}. Once the job told its length {@code L}, the warm-up is {@code W = min(warmupSteps, L / 2)}
 * updates and the cosine runs from the base rate to {@code minLearningRate} over the remaining {@code L - W},
 * so the job's last update {@code L} uses
 * {@code minRate + (lr - minRate) * (1 + cos(pi * (L - W - 1) / (L - W))) / 2}, and later ones {@code minRate}. Before the job told its length (a job that declares no dense model, or an update that
 * arrived first) the rate is the configured warm-up, then the base rate. Thread-safe: the sized schedule is
 * built once, on the first update after the length is known.
 */
public final class JobSizedSchedule implements LearningRateSchedule {
    private final double lr;
    private final long warmupSteps;
    private final double minRate;
    private final JobLength length;
    private final LearningRateSchedule unsized;
    private volatile LearningRateSchedule sized;

    /**
     * @param lr          the base learning rate
     * @param warmupSteps the configured warm-up, &gt;= 0 (capped at half the job)
     * @param minRate     the rate at the end of the decay, in [0, lr]
     * @param length      where the job's length arrives
     */
    public JobSizedSchedule(double lr, long warmupSteps, double minRate, JobLength length) {
        this.lr = lr;
        this.warmupSteps = warmupSteps;
        this.minRate = minRate;
        this.length = length;
        ConstantSchedule constant = new ConstantSchedule(lr);
        this.unsized = warmupSteps == 0 ? constant : new LinearWarmup(lr, warmupSteps, constant);
    }

    @Override
    public double rate(long update) {
        LearningRateSchedule s = sized;
        if (s == null) {
            long jobUpdates = length.updates();
            if (jobUpdates <= 0) {
                return unsized.rate(update);
            }
            s = sizedFor(jobUpdates);
            sized = s;
        }
        return s.rate(update);
    }

    /** @return the warm-up this schedule uses for a job of {@code jobUpdates} updates */
    public long warmupFor(long jobUpdates) {
        return Math.min(warmupSteps, jobUpdates / 2);
    }

    private LearningRateSchedule sizedFor(long jobUpdates) {
        long warmup = warmupFor(jobUpdates);
        CosineSchedule cosine = new CosineSchedule(lr, minRate, Math.max(1, jobUpdates - warmup));
        return warmup == 0 ? cosine : new LinearWarmup(lr, warmup, cosine);
    }

    @Override
    public String describe() {
        long jobUpdates = length.updates();
        if (jobUpdates <= 0) {
            return "COSINE(total-steps=the job's, min-learning-rate=" + minRate + ")"
                    + (warmupSteps == 0 ? "" : " after warm-up " + warmupSteps) + " (no job has told its length yet)";
        }
        return sizedFor(jobUpdates).describe() + " (the job's " + jobUpdates + " updates)";
    }
}
