package io.jvmps.worker.model;

import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;

import java.util.Map;

/** The model-specific part of a {@link SameDiffModel}: from the input placeholder to the class logits. */
@FunctionalInterface
public interface GraphDefinition {

    /**
     * @param sd     the graph under construction
     * @param input  placeholder {@code [n, inputSize]}, float32
     * @param params the model's variables by parameter name
     * @return unnormalised class scores {@code [n, numClasses]}
     */
    SDVariable logits(SameDiff sd, SDVariable input, Map<String, SDVariable> params);
}
