package io.jvmps.worker.model.baseline;

import org.nd4j.linalg.api.ndarray.INDArray;

/** Applies one gradient step to a parameter in place, keeping any per-parameter state itself. */
public interface LocalOptimizer {

    /**
     * @param name     parameter name (keys the optimizer state)
     * @param param    updated in place
     * @param gradient batch-averaged gradient with the parameter's shape; not modified
     */
    void apply(String name, INDArray param, INDArray gradient);
}
