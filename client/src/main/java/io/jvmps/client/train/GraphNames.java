package io.jvmps.client.train;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * The variables of a SameDiff graph that training and prediction use, by name: the feature
 * placeholder {@code [n, d]}, the one-hot label placeholder {@code [n, k]}, the scalar loss that
 * training minimises and the class scores {@code [n, k]} whose arg-max is the prediction.
 * Immutable.
 *
 * @param input      feature placeholder
 * @param label      label placeholder
 * @param loss       loss variable
 * @param prediction class scores (probabilities or logits)
 */
public record GraphNames(String input, String label, String loss, String prediction) {
    /** The names the built-in models use, and the defaults of {@code ps.worker.graph.*}. */
    public static final GraphNames DEFAULT = new GraphNames("input", "label", "loss", "probabilities");

    /** Refuses blank names. */
    public GraphNames {
        requireName("input", input);
        requireName("label", label);
        requireName("loss", loss);
        requireName("prediction", prediction);
    }

    private static void requireName(String role, String name) {
        if (name == null || name.isBlank()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "ps.worker.graph." + role
                    + " must name a variable of the model's graph, got '" + name + "'");
        }
    }
}
