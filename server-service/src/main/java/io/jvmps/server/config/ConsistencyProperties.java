package io.jvmps.server.config;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.server.consistency.ConsistencySettings;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The consistency mode and its parameters, bound from {@code ps.consistency.*}.
 *
 * @param mode            SYNC (a step is applied once every worker pushed it, from their mean), ASYNC
 *                        (every push applied on arrival), SSP (ASYNC with a staleness bound) or GEO
 *                        (workers push parameter deltas, which are added)
 * @param staleness       SSP: how many steps a worker may be ahead of the slowest, &gt;= 0
 * @param geoInterval     GEO: local steps between two delta pushes (k), &gt;= 1
 * @param geoLearningRate GEO: learning rate of the workers' local plain SGD, &gt; 0
 */
@Validated
@ConfigurationProperties("ps.consistency")
public record ConsistencyProperties(
        @DefaultValue("SYNC")
        @NotNull(message = "ps.consistency.mode is required; accepted: SYNC, ASYNC, SSP, GEO")
        ConsistencyMode mode,
        @DefaultValue("3")
        @Min(value = 0, message = "ps.consistency.staleness must be >= 0 (steps a worker may run ahead in SSP)")
        int staleness,
        @DefaultValue("10")
        @Min(value = 1, message = "ps.consistency.geo-interval must be >= 1 (local steps between GEO pushes)")
        int geoInterval,
        @DefaultValue("0.1")
        @Positive(message = "ps.consistency.geo-learning-rate must be > 0 (workers' local SGD rate in GEO)")
        double geoLearningRate) {

    /** @return the mode with the parameters that apply to it (the others 0), as workers are told */
    public ConsistencySettings settings() {
        return ConsistencySettings.of(mode, staleness, geoInterval, geoLearningRate);
    }
}
