package io.jvmps.server.config;

import io.jvmps.server.consistency.ConsistencyMode;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The consistency mode, bound from {@code ps.consistency.*}.
 *
 * @param mode SYNC (bulk-synchronous: a step is applied once every worker pushed it) or ASYNC
 *             (every push is applied on arrival)
 */
@Validated
@ConfigurationProperties("ps.consistency")
public record ConsistencyProperties(
        @DefaultValue("SYNC")
        @NotNull(message = "ps.consistency.mode is required; accepted: SYNC, ASYNC")
        ConsistencyMode mode) {
}
