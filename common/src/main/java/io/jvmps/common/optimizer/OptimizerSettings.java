package io.jvmps.common.optimizer;

import io.jvmps.common.optimizer.schedule.LearningRateSchedule;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;

import java.util.Objects;

/**
 * Hyper-parameters of every optimizer; each uses the ones it needs. Immutable.
 *
 * @param learningRate       base step size (alpha for FTRL); the schedule scales it per update
 * @param momentum           momentum coefficient (MOMENTUM)
 * @param nesterov           Nesterov variant (MOMENTUM)
 * @param beta1              first-moment decay (ADAM)
 * @param beta2              second-moment decay (ADAM)
 * @param epsilon            denominator guard (ADAM, ADAGRAD)
 * @param initialAccumulator starting value of the squared-gradient sum (ADAGRAD)
 * @param l1                 L1 regularisation strength (FTRL)
 * @param l2                 L2 regularisation strength (FTRL)
 * @param beta               the FTRL-Proximal beta of the per-coordinate rate (FTRL), &gt; 0
 * @param schedule           the learning-rate schedule
 */
public record OptimizerSettings(double learningRate, double momentum, boolean nesterov, double beta1, double beta2,
                                double epsilon, double initialAccumulator, double l1, double l2, double beta,
                                ScheduleSettings schedule) {

    /** Checks that a schedule is given. */
    public OptimizerSettings {
        Objects.requireNonNull(schedule, "schedule");
    }

    /**
     * Settings with a constant learning rate and the ADAGRAD/FTRL defaults (initial accumulator 0.1,
     * l1 = l2 = 0, beta = 1).
     */
    public OptimizerSettings(double learningRate, double momentum, boolean nesterov, double beta1, double beta2,
                             double epsilon) {
        this(learningRate, momentum, nesterov, beta1, beta2, epsilon, 0.1, 0.0, 0.0, 1.0, ScheduleSettings.constant());
    }

    /**
     * @param learningRate the constant learning rate
     * @return the defaults of the servers' {@code ps.optimizer.*} properties around that rate: momentum 0.9,
     *         no Nesterov, beta1 0.9, beta2 0.999, epsilon 1e-8, initial accumulator 0.1, l1 = l2 = 0,
     *         beta 1, constant schedule
     */
    public static OptimizerSettings defaults(double learningRate) {
        return new OptimizerSettings(learningRate, 0.9, false, 0.9, 0.999, 1e-8);
    }

    /**
     * @param newSchedule the schedule to use
     * @return these settings with another schedule
     */
    public OptimizerSettings withSchedule(ScheduleSettings newSchedule) {
        return new OptimizerSettings(learningRate, momentum, nesterov, beta1, beta2, epsilon, initialAccumulator,
                l1, l2, beta, newSchedule);
    }

    /** @return the schedule built around {@link #learningRate()} */
    public LearningRateSchedule learningRateSchedule() {
        return schedule.create(learningRate);
    }
}
