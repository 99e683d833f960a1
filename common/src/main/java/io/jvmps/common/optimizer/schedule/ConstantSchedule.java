package io.jvmps.common.optimizer.schedule;

/** The same rate for every update. */
public final class ConstantSchedule implements LearningRateSchedule {
    private final double rate;

    /** @param rate the learning rate */
    public ConstantSchedule(double rate) {
        this.rate = rate;
    }

    @Override
    public double rate(long update) {
        return rate;
    }

    @Override
    public String describe() {
        return "CONSTANT";
    }
}
