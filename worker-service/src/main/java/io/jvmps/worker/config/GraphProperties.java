package io.jvmps.worker.config;

import io.jvmps.client.train.GraphNames;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The variables of a model file's graph ({@code ps.worker.graph.*}), used when {@code ps.worker.model} names a
 * SameDiff model file. The defaults are the names the built-in models use ({@link GraphNames#DEFAULT}).
 *
 * @param input feature placeholder, a FLOAT matrix {@code [-1, d]}
 * @param label one-hot label placeholder, a FLOAT matrix {@code [-1, k]}
 * @param loss the loss training minimises
 * @param prediction class scores {@code [n, k]}; the arg-max is the predicted class
 */
public record GraphProperties(
        @NotBlank @DefaultValue("input") String input,
        @NotBlank @DefaultValue("label") String label,
        @NotBlank @DefaultValue("loss") String loss,
        @NotBlank @DefaultValue("probabilities") String prediction) {

    /** @return the names as one value */
    public GraphNames names() {
        return new GraphNames(input, label, loss, prediction);
    }
}
