package io.jvmps.client.schedule;

import io.jvmps.client.dataset.EpochBatches;

/**
 * One step of a worker's schedule, as {@link Steps#schedule} hands them out.
 *
 * @param epoch   1-based epoch
 * @param step    0-based step within the epoch
 * @param index   0-based step over the whole job (steps done before this one)
 * @param total   steps the job runs
 * @param batches the epoch's batches
 */
public record ScheduledStep(int epoch, int step, long index, long total, EpochBatches batches) {

    /** @return this step's example indices */
    public int[] examples() {
        return batches.batchIndices(step);
    }

    /** @return the next step's example indices if the job runs it in this epoch, else null */
    public int[] nextExamplesInEpoch() {
        return step + 1 < batches.stepsPerEpoch() && index + 1 < total ? batches.batchIndices(step + 1) : null;
    }
}
