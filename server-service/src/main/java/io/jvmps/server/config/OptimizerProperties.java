package io.jvmps.server.config;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The server-side optimizer and its learning-rate schedule, bound from {@code ps.optimizer.*}.
 *
 * @param type               SGD, MOMENTUM, ADAGRAD, ADAM or FTRL
 * @param learningRate       base step size (FTRL's alpha), &gt; 0
 * @param momentum           momentum coefficient mu in [0, 1) (MOMENTUM)
 * @param nesterov           use Nesterov momentum (MOMENTUM)
 * @param beta1              first-moment decay in [0, 1) (ADAM)
 * @param beta2              second-moment decay in [0, 1) (ADAM)
 * @param epsilon            denominator guard, &gt; 0 (ADAM, ADAGRAD)
 * @param initialAccumulator starting value of the squared-gradient sum, &gt;= 0 (ADAGRAD)
 * @param l1                 L1 regularisation strength, &gt;= 0 (FTRL)
 * @param l2                 L2 regularisation strength, &gt;= 0 (FTRL)
 * @param beta               FTRL-Proximal beta, &gt; 0 (FTRL)
 * @param schedule           CONSTANT, STEP or COSINE
 * @param warmupSteps        linear warm-up from 0 to the learning rate over this many updates, &gt;= 0 (0 = none)
 * @param stepSize           updates between two decays, &gt;= 1 (STEP)
 * @param gamma              decay factor in (0, 1] (STEP)
 * @param totalSteps         length of the cosine decay in updates after the warm-up, &gt;= 0; 0 with COSINE: the job's
 *                           length less the warm-up (see {@link io.jvmps.common.optimizer.schedule.JobSizedSchedule})
 * @param minLearningRate    rate at the end of the cosine decay, in [0, learning-rate] (COSINE)
 * @param threads            threads one dense slice update may use, &gt;= 0; 0 = one per core
 */
@Validated
@ConfigurationProperties("ps.optimizer")
public record OptimizerProperties(
        @DefaultValue("ADAM")
        @NotNull(message = "ps.optimizer.type is required; accepted: SGD, MOMENTUM, ADAGRAD, ADAM, FTRL")
        OptimizerType type,
        @DefaultValue("0.001")
        @Positive(message = "ps.optimizer.learning-rate must be > 0")
        double learningRate,
        @DefaultValue("0.9")
        @DecimalMin(value = "0", message = "ps.optimizer.momentum must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.momentum must be in [0, 1)")
        double momentum,
        @DefaultValue("false")
        boolean nesterov,
        @DefaultValue("0.9")
        @DecimalMin(value = "0", message = "ps.optimizer.beta1 must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.beta1 must be in [0, 1)")
        double beta1,
        @DefaultValue("0.999")
        @DecimalMin(value = "0", message = "ps.optimizer.beta2 must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.beta2 must be in [0, 1)")
        double beta2,
        @DefaultValue("1e-8")
        @Positive(message = "ps.optimizer.epsilon must be > 0")
        double epsilon,
        @DefaultValue("0.1")
        @PositiveOrZero(message = "ps.optimizer.initial-accumulator must be >= 0")
        double initialAccumulator,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.l1 must be >= 0")
        double l1,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.l2 must be >= 0")
        double l2,
        @DefaultValue("1.0")
        @Positive(message = "ps.optimizer.beta must be > 0")
        double beta,
        @DefaultValue("CONSTANT")
        @NotNull(message = "ps.optimizer.schedule is required; accepted: CONSTANT, STEP, COSINE")
        ScheduleType schedule,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.warmup-steps must be >= 0 (0 = no warm-up)")
        long warmupSteps,
        @DefaultValue("1000")
        @Min(value = 1, message = "ps.optimizer.step-size must be >= 1")
        long stepSize,
        @DefaultValue("0.1")
        @DecimalMin(value = "0", inclusive = false, message = "ps.optimizer.gamma must be in (0, 1]")
        @DecimalMax(value = "1", message = "ps.optimizer.gamma must be in (0, 1]")
        double gamma,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.total-steps must be >= 0 "
                + "(0 with COSINE: the job's length)")
        long totalSteps,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.min-learning-rate must be in [0, ps.optimizer.learning-rate]")
        double minLearningRate,
        @DefaultValue("0")
        @PositiveOrZero(message = "ps.optimizer.threads must be >= 0 (0 = one per core)")
        int threads) {

    /** @return {@link #threads()}, with 0 resolved to the number of cores */
    public int resolvedThreads() {
        return threads == 0 ? Runtime.getRuntime().availableProcessors() : threads;
    }

    /**
     * @return the hyper-parameters as the optimizer package sees them, as the servers describe them to workers: a
     *         COSINE schedule without {@code total-steps} has {@code totalSteps = 0} there (the job's length)
     */
    public OptimizerSettings settings() {
        return settings(null);
    }

    /**
     * @param jobLength where the job tells its length (sizes COSINE without {@code total-steps}), or null
     * @return the hyper-parameters the servers' optimizers are built with
     */
    public OptimizerSettings settings(io.jvmps.common.optimizer.schedule.JobLength jobLength) {
        return new OptimizerSettings(learningRate, momentum, nesterov, beta1, beta2, epsilon, initialAccumulator,
                l1, l2, beta, new ScheduleSettings(schedule, warmupSteps, stepSize, gamma, totalSteps,
                minLearningRate, jobLength));
    }

    /** @return whether the cosine decay's length comes from the job (COSINE without {@code total-steps}) */
    public boolean cosineSizedByJob() {
        return schedule == ScheduleType.COSINE && totalSteps == 0;
    }

    /** @return whether the cosine floor is at most the base rate (checked at start-up) */
    @AssertTrue(message = "ps.optimizer.min-learning-rate must be in [0, ps.optimizer.learning-rate]")
    public boolean isMinLearningRateBelowBase() {
        return minLearningRate <= learningRate;
    }

    /** @return whether the servers' optimizer can update dense slices (row-wise optimizers are per table) */
    @AssertTrue(message = "ps.optimizer.type=ROWWISE_ADAGRAD updates sparse table rows only: keep ps.optimizer.type a "
            + "dense optimizer and name ROWWISE_ADAGRAD as a table's optimizer")
    public boolean isDenseCapable() {
        return type == null || !type.rowsOnly();
    }

    /** @return whether FTRL never sees a zero rate, which it divides by (checked at start-up) */
    @AssertTrue(message = "ps.optimizer.min-learning-rate must be > 0 when ps.optimizer.type is FTRL and "
            + "ps.optimizer.schedule is COSINE (FTRL divides by the learning rate)")
    public boolean isFtrlRatePositive() {
        return type != OptimizerType.FTRL || schedule != ScheduleType.COSINE || minLearningRate > 0;
    }
}
