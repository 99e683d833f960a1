package io.jvmps.worker.train.loop;

import io.jvmps.worker.train.progress.TrainingSummary;
/**
 * One way of training against the servers; chosen by the servers' consistency mode
 * ({@link TrainingLoops}). Not thread-safe: one loop per worker, run once.
 */
public interface TrainingLoop {

    /** @return the steps this worker will run */
    long totalSteps();

    /** Runs every step and leaves the model holding the final global parameters. */
    TrainingSummary run();
}
