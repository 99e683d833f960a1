package io.jvmps.server.config;

import io.jvmps.server.optimizer.OptimizerSettings;
import io.jvmps.server.optimizer.OptimizerType;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The server-side optimizer, bound from {@code ps.optimizer.*}.
 *
 * @param type         SGD, MOMENTUM or ADAM
 * @param learningRate step size, &gt; 0
 * @param momentum     momentum coefficient mu in [0, 1) (MOMENTUM)
 * @param nesterov     use Nesterov momentum (MOMENTUM)
 * @param beta1        first-moment decay in [0, 1) (ADAM)
 * @param beta2        second-moment decay in [0, 1) (ADAM)
 * @param epsilon      denominator guard, &gt; 0 (ADAM)
 */
@Validated
@ConfigurationProperties("ps.optimizer")
public record OptimizerProperties(
        @DefaultValue("ADAM")
        @NotNull(message = "ps.optimizer.type is required; accepted: SGD, MOMENTUM, ADAM")
        OptimizerType type,
        @DefaultValue("0.001")
        @Positive(message = "ps.optimizer.learning-rate must be > 0")
        double learningRate,
        @DefaultValue("0.9")
        @DecimalMin(value = "0", message = "ps.optimizer.momentum must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.momentum must be in [0, 1)")
        double momentum,
        @DefaultValue("false")
        boolean nesterov,
        @DefaultValue("0.9")
        @DecimalMin(value = "0", message = "ps.optimizer.beta1 must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.beta1 must be in [0, 1)")
        double beta1,
        @DefaultValue("0.999")
        @DecimalMin(value = "0", message = "ps.optimizer.beta2 must be in [0, 1)")
        @DecimalMax(value = "1", inclusive = false, message = "ps.optimizer.beta2 must be in [0, 1)")
        double beta2,
        @DefaultValue("1e-8")
        @Positive(message = "ps.optimizer.epsilon must be > 0")
        double epsilon) {

    /** @return the hyper-parameters as the optimizer package sees them */
    public OptimizerSettings settings() {
        return new OptimizerSettings(learningRate, momentum, nesterov, beta1, beta2, epsilon);
    }
}
