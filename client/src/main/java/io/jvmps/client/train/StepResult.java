package io.jvmps.client.train;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outcome of one forward/backward pass.
 *
 * @param loss      mean loss over the batch
 * @param gradients gradient per parameter name, in the model's parameter order; fresh arrays the
 *                  caller owns
 */
public record StepResult(double loss, Map<String, INDArray> gradients) {

    /** Keeps the iteration order and makes the map read-only. */
    public StepResult {
        gradients = Collections.unmodifiableMap(new LinkedHashMap<>(gradients));
    }
}
