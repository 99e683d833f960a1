package io.jvmps.worker.config;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What a finished job writes ({@code ps.worker.output.*}); empty writes nothing.
 *
 * @param modelDir if set, rank 0 writes the trained model there at the end of the job (model.sd + model.json)
 * @param parametersDir if set, the worker writes its final parameters there as {@code <name>.npy}
 */
public record OutputProperties(
        @NotNull @DefaultValue("") String modelDir,
        @NotNull @DefaultValue("") String parametersDir) {
}
