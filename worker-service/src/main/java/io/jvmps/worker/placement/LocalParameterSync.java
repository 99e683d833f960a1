package io.jvmps.worker.placement;

import io.jvmps.client.train.StepResult;

/**
 * Keeps a model's worker-local parameters equal on every worker: called once per training step,
 * after the step's gradients are known, identically on every worker. Not thread-safe.
 */
public interface LocalParameterSync extends AutoCloseable {

    /** For models without worker-local parameters: does nothing. */
    LocalParameterSync NONE = new LocalParameterSync() {
        @Override
        public void afterStep(long step, StepResult result) {
        }

        @Override
        public String describe() {
            return "no worker-local parameters";
        }
    };

    /**
     * Averages this step's gradients of the local parameters across the workers and applies the
     * update rule to the model's local parameters.
     *
     * @param step   the global training step (the same number on every worker)
     * @param result this worker's gradients of the step
     */
    void afterStep(long step, StepResult result);

    /** @return a one-line summary of what was done so far (steps, time, bytes) */
    String describe();

    @Override
    default void close() {
    }
}
