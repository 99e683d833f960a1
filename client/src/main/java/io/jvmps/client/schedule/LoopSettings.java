package io.jvmps.client.schedule;

import java.time.Duration;

/**
 * Settings every training loop shares.
 *
 * @param epochs      passes over the data
 * @param batchSize   samples per step on this worker
 * @param seed        shuffling seed, same on every worker
 * @param logInterval log every this many steps
 * @param maxSteps    stop after this many steps in total (0 = no limit)
 * @param stepDelay   extra pause per step (benchmarks of slow workers only; zero otherwise)
 * @param startStep   steps of the schedule already done (a job resumed from a checkpoint); 0 for a fresh job
 */
public record LoopSettings(int epochs, int batchSize, long seed, int logInterval, int maxSteps, Duration stepDelay,
                           long startStep) {

    /** Settings of a fresh job (starting at step 0). */
    public LoopSettings(int epochs, int batchSize, long seed, int logInterval, int maxSteps, Duration stepDelay) {
        this(epochs, batchSize, seed, logInterval, maxSteps, stepDelay, 0);
    }
}
