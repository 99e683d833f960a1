package io.jvmps.worker.train.progress;

/**
 * What one worker's training loop did.
 *
 * @param steps          steps run
 * @param lastLoss       loss of the last batch
 * @param seconds        wall time of the loop
 * @param samples        samples this worker trained on
 * @param pullSeconds    time spent pulling (including waits imposed by the consistency mode)
 * @param computeSeconds time spent in forward/backward (and local updates)
 * @param pushSeconds    time spent pushing
 */
public record TrainingSummary(long steps, double lastLoss, double seconds, long samples, double pullSeconds,
                              double computeSeconds, double pushSeconds) {
    /** @return samples per second */
    public double samplesPerSecond() {
        return seconds > 0 ? samples / seconds : 0;
    }
}
