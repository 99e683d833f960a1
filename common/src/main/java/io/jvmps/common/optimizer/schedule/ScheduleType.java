package io.jvmps.common.optimizer.schedule;

/** The learning-rate schedules, chosen by {@code ps.optimizer.schedule}. */
public enum ScheduleType {
    /** The configured rate for every update. */
    CONSTANT((lr, s) -> new ConstantSchedule(lr)),
    /** Multiply by {@code gamma} every {@code stepSize} updates. */
    STEP((lr, s) -> new StepSchedule(lr, s.stepSize(), s.gamma())),
    /** Cosine decay to {@code minLearningRate} over {@code totalSteps} updates, then constant. */
    COSINE((lr, s) -> new CosineSchedule(lr, s.minLearningRate(), s.totalSteps()));

    /** Builds the decay part of a schedule (the warm-up is added by {@link ScheduleSettings#create}). */
    @FunctionalInterface
    interface Factory {
        LearningRateSchedule create(double lr, ScheduleSettings settings);
    }

    private final Factory factory;

    ScheduleType(Factory factory) {
        this.factory = factory;
    }

    /**
     * @param lr       the base learning rate
     * @param settings the schedule's parameters
     * @return this kind of schedule, without warm-up
     */
    LearningRateSchedule decay(double lr, ScheduleSettings settings) {
        return factory.create(lr, settings);
    }
}
