package io.jvmps.worker.train.progress;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The worker's live training state, written by the training thread and read by the status
 * endpoint and the progress reporter. Thread-safe (one immutable snapshot behind an atomic reference).
 */
public class TrainingState {

    /** Phases a worker goes through. */
    public enum Phase { STARTING, WAITING_FOR_SERVERS, INITIALIZING, TRAINING, RECOVERING, EVALUATING, FINISHED, FAILED }

    /**
     * @param phase      current phase
     * @param rank       worker rank (-1 before registration)
     * @param nodeId     id given by the scheduler
     * @param epoch      1-based epoch
     * @param step       1-based step within the epoch
     * @param globalStep steps completed in total
     * @param totalSteps steps the job will run
     * @param loss       loss of the last batch
     * @param samplesPerSecond recent throughput
     * @param bytesPushed float32 bytes pushed so far
     * @param bytesPulled float32 bytes pulled so far
     * @param accuracy   test accuracy on this worker's shard once evaluated, else NaN
     * @param error      the failure message in phase FAILED
     */
    public record Snapshot(Phase phase, int rank, String nodeId, int epoch, int step, long globalStep, long totalSteps,
                           double loss, double samplesPerSecond, long bytesPushed, long bytesPulled, double accuracy,
                           String error) {
    }

    private final AtomicReference<Snapshot> current = new AtomicReference<>(
            new Snapshot(Phase.STARTING, -1, null, 0, 0, 0, 0, Double.NaN, 0, 0, 0, Double.NaN, null));

    /** @return the latest snapshot */
    public Snapshot get() {
        return current.get();
    }

    /** Replaces the snapshot with the result of a function of it. */
    public void update(java.util.function.UnaryOperator<Snapshot> change) {
        current.updateAndGet(change);
    }

    /** Moves to another phase. */
    public void phase(Phase phase) {
        update(s -> new Snapshot(phase, s.rank(), s.nodeId(), s.epoch(), s.step(), s.globalStep(), s.totalSteps(),
                s.loss(), s.samplesPerSecond(), s.bytesPushed(), s.bytesPulled(), s.accuracy(), s.error()));
    }
}
