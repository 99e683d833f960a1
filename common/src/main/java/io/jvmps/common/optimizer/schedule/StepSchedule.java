package io.jvmps.common.optimizer.schedule;

/**
 * Step decay: updates {@code 1..stepSize} use {@code lr}, the next {@code stepSize} use {@code lr * gamma},
 * then {@code lr * gamma^2}, and so on: {@code rate(u) = lr * gamma^floor((u - 1) / stepSize)}.
 */
public final class StepSchedule implements LearningRateSchedule {
    private final double lr;
    private final long stepSize;
    private final double gamma;

    /**
     * @param lr       the initial rate
     * @param stepSize updates between two decays, &gt;= 1
     * @param gamma    factor applied at each decay, in (0, 1]
     */
    public StepSchedule(double lr, long stepSize, double gamma) {
        if (stepSize < 1) {
            throw new IllegalArgumentException("step size must be >= 1, got " + stepSize);
        }
        this.lr = lr;
        this.stepSize = stepSize;
        this.gamma = gamma;
    }

    @Override
    public double rate(long update) {
        long decays = Math.max(0, update - 1) / stepSize;
        return lr * Math.pow(gamma, decays);
    }

    @Override
    public String describe() {
        return "STEP(step-size=" + stepSize + ", gamma=" + gamma + ")";
    }
}
