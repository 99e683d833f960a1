package io.jvmps.worker.config;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How long and in what steps this worker trains ({@code ps.worker.training.*}); every job kind reads these.
 *
 * @param epochs passes over the training set
 * @param batchSize samples per step on this worker
 * @param seed seed of parameter initialisation and data shuffling; the same on every worker
 * @param logInterval log (and report) loss every this many steps; step 1 is always logged
 * @param maxSteps stop after this many steps in total (0 = run every epoch); for tests
 * @param evalBatchSize batch size of the final evaluation
 * @param stepDelay extra pause per training step, for benchmarks and tests that need a slow worker (e.g. to show
 *     what ASYNC and SSP buy over SYNC); leave at zero otherwise
 */
public record TrainingProperties(
        @Min(1) @DefaultValue("4") int epochs,
        @Min(1) @DefaultValue("64") int batchSize,
        @DefaultValue("42") long seed,
        @Min(1) @DefaultValue("10") int logInterval,
        @Min(0) @DefaultValue("0") int maxSteps,
        @Min(1) @DefaultValue("500") int evalBatchSize,
        @NotNull @DefaultValue("0") Duration stepDelay) {

    /**
     * @param startStep steps of the schedule already done; 0 for a fresh job
     * @return the training loop's settings
     */
    public io.jvmps.client.schedule.LoopSettings loop(long startStep) {
        return new io.jvmps.client.schedule.LoopSettings(epochs, batchSize, seed, logInterval, maxSteps, stepDelay,
                startStep);
    }
}
