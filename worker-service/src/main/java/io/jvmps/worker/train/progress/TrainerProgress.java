package io.jvmps.worker.train.progress;

import io.jvmps.client.PsJob;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes the worker's status page ({@link TrainingState}) and metrics ({@link TrainingMeters}) follow the steps the
 * library's trainer reports through {@link PsJob#onStep}, and paces them by {@code ps.worker.training.step-delay}
 * (benchmarks and tests of slow workers). Its listener runs on the training thread.
 */
public final class TrainerProgress {
    private TrainerProgress() {
    }

    /**
     * @param stepDelay a pause after every step (zero: none)
     */
    public static void follow(PsJob job, TrainingState state, TrainingMeters meters, Duration stepDelay) {
        long[] lastStep = {System.nanoTime()};
        job.onStep((report, examples) -> {
            long now = System.nanoTime();
            meters.step(now - lastStep[0], report.loss(), examples);
            lastStep[0] = now;
            state.update(s -> new TrainingState.Snapshot(TrainingState.Phase.TRAINING, s.rank(), s.nodeId(),
                    report.epoch(), report.step(), report.globalStep(), s.totalSteps(), report.loss(),
                    report.imagesPerSecond(), report.bytesPushed(), report.bytesPulled(), s.accuracy(), s.error()));
            if (!stepDelay.isZero()) {
                LockSupport.parkNanos(stepDelay.toNanos());
            }
        });
    }
}
