package io.jvmps.common.optimizer.schedule;

import java.util.Objects;

/**
 * Parameters of a learning-rate schedule; each kind uses the ones it needs. Immutable.
 *
 * @param type            CONSTANT, STEP or COSINE
 * @param warmupSteps     linear warm-up from 0 to the learning rate over this many updates; 0 = none
 * @param stepSize        updates between two decays (STEP), &gt;= 1
 * @param gamma           decay factor (STEP), in (0, 1]
 * @param totalSteps      length of the cosine decay in updates, counted after the warm-up (COSINE)
 * @param minLearningRate rate at the end of the cosine decay (COSINE)
 * @param jobLength       where the job tells its length: a COSINE schedule with {@code totalSteps == 0} is sized
 *                        from it ({@link JobSizedSchedule}); {@code null} when nothing tells it (then COSINE needs
 *                        {@code totalSteps >= 1})
 */
public record ScheduleSettings(ScheduleType type, long warmupSteps, long stepSize, double gamma, long totalSteps,
                               double minLearningRate, JobLength jobLength) {

    /** Settings whose length, if any, is given here ({@code totalSteps}), not by the job. */
    public ScheduleSettings(ScheduleType type, long warmupSteps, long stepSize, double gamma, long totalSteps,
                            double minLearningRate) {
        this(type, warmupSteps, stepSize, gamma, totalSteps, minLearningRate, null);
    }

    /** Checks the parameters every schedule needs. */
    public ScheduleSettings {
        Objects.requireNonNull(type, "type");
        if (warmupSteps < 0) {
            throw new IllegalArgumentException("warm-up steps must be >= 0, got " + warmupSteps);
        }
    }

    /** @return these settings with the job's length told through {@code length} */
    public ScheduleSettings withJobLength(JobLength length) {
        return new ScheduleSettings(type, warmupSteps, stepSize, gamma, totalSteps, minLearningRate, length);
    }

    /** @return a constant rate without warm-up */
    public static ScheduleSettings constant() {
        return new ScheduleSettings(ScheduleType.CONSTANT, 0, 1, 1.0, 0, 0.0);
    }

    /**
     * @param lr the base learning rate
     * @return the schedule, with the warm-up in front when {@code warmupSteps > 0}; sized from the job when it is
     *         COSINE without {@code totalSteps} and a {@link #jobLength()} is given
     */
    public LearningRateSchedule create(double lr) {
        if (type == ScheduleType.COSINE && totalSteps == 0 && jobLength != null) {
            return new JobSizedSchedule(lr, warmupSteps, minLearningRate, jobLength);
        }
        LearningRateSchedule decay = type.decay(lr, this);
        return warmupSteps == 0 ? decay : new LinearWarmup(lr, warmupSteps, decay);
    }
}
