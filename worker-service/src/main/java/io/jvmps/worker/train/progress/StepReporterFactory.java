package io.jvmps.worker.train.progress;

import io.jvmps.client.data.DenseClient;

/** Makes a training loop's {@link StepReporter}, around the dense client whose bytes it reports. */
@FunctionalInterface
public interface StepReporterFactory {
    /**
     * @param dense  the loop's dense client (a new one after a recovery)
     * @param nodeId this worker's node id, as the job registered it
     */
    StepReporter create(DenseClient dense, String nodeId);
}
