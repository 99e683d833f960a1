package io.jvmps.common.optimizer.schedule;

/**
 * Linear warm-up in front of another schedule: update {@code u <= warmupSteps} uses
 * {@code lr * u / warmupSteps} (so update {@code warmupSteps} reaches {@code lr}); later updates use
 * {@code after.rate(u - warmupSteps)}, i.e. the decay starts counting once the warm-up is over.
 */
public final class LinearWarmup implements LearningRateSchedule {
    private final double lr;
    private final long warmupSteps;
    private final LearningRateSchedule after;

    /**
     * @param lr          the rate the ramp reaches
     * @param warmupSteps length of the ramp in updates, &gt;= 1
     * @param after       the schedule that follows, counted from 1 after the ramp
     */
    public LinearWarmup(double lr, long warmupSteps, LearningRateSchedule after) {
        if (warmupSteps < 1) {
            throw new IllegalArgumentException("warm-up steps must be >= 1, got " + warmupSteps);
        }
        this.lr = lr;
        this.warmupSteps = warmupSteps;
        this.after = after;
    }

    @Override
    public double rate(long update) {
        return update <= warmupSteps ? lr * Math.max(0, update) / warmupSteps : after.rate(update - warmupSteps);
    }

    @Override
    public String describe() {
        return after.describe() + " after warm-up " + warmupSteps;
    }
}
