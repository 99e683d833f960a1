package io.jvmps.worker.model.baseline;

import java.time.Duration;

/**
 * What one local training epoch did.
 *
 * @param epoch    epoch number
 * @param steps    batches trained
 * @param samples  examples trained
 * @param meanLoss mean of the batch losses
 * @param elapsed  wall time of the epoch
 */
public record EpochReport(int epoch, int steps, long samples, double meanLoss, Duration elapsed) {

    /** @return examples per second (0 if no time elapsed) */
    public double samplesPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos == 0 ? 0 : samples * 1e9 / nanos;
    }

    /** @return mean wall time per step in milliseconds */
    public double millisPerStep() {
        return steps == 0 ? 0 : elapsed.toNanos() / 1e6 / steps;
    }
}
