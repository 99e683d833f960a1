package io.jvmps.common.optimizer.schedule;

/**
 * Cosine decay from {@code lr} to {@code minRate} over {@code totalSteps} updates, then constant at
 * {@code minRate}: with {@code k = min(u - 1, totalSteps)},
 * {@code rate(u) = minRate + (lr - minRate) * (1 + cos(pi * k / totalSteps)) / 2}. Update 1 uses
 * {@code lr}; update {@code totalSteps + 1} and every later one use {@code minRate}.
 */
public final class CosineSchedule implements LearningRateSchedule {
    private final double lr;
    private final double minRate;
    private final long totalSteps;

    /**
     * @param lr         the initial rate
     * @param minRate    the final rate, in [0, lr]
     * @param totalSteps length of the decay in updates, &gt;= 1
     */
    public CosineSchedule(double lr, double minRate, long totalSteps) {
        if (totalSteps < 1) {
            throw new IllegalArgumentException("total steps must be >= 1, got " + totalSteps);
        }
        this.lr = lr;
        this.minRate = minRate;
        this.totalSteps = totalSteps;
    }

    @Override
    public double rate(long update) {
        long k = Math.min(Math.max(0, update - 1), totalSteps);
        return minRate + (lr - minRate) * 0.5 * (1 + Math.cos(Math.PI * k / totalSteps));
    }

    @Override
    public String describe() {
        return "COSINE(total-steps=" + totalSteps + ", min-learning-rate=" + minRate + ")";
    }
}
