package io.jvmps.server.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The parameter server's own settings, bound from {@code ps.server.*}.
 *
 * @param rank            rank used when the scheduler is disabled ({@code ps.scheduler.enabled=false})
 * @param pullTimeout     how long a pull may wait for its slices to reach the requested version
 * @param registerTimeout how long to keep trying to register with the scheduler before exiting
 * @param registerRetry   pause between two registration attempts
 */
@Validated
@ConfigurationProperties("ps.server")
public record PsServerProperties(
        @DefaultValue("0")
        @Min(value = 0, message = "ps.server.rank must be between 0 and 4095")
        @Max(value = 4095, message = "ps.server.rank must be between 0 and 4095")
        int rank,
        @DefaultValue("120s")
        @NotNull(message = "ps.server.pull-timeout is required (e.g. 120s)")
        @DurationMin(millis = 1, message = "ps.server.pull-timeout must be positive (e.g. 120s)")
        Duration pullTimeout,
        @DefaultValue("5m")
        @NotNull(message = "ps.server.register-timeout is required (e.g. 5m)")
        @DurationMin(millis = 1, message = "ps.server.register-timeout must be positive (e.g. 5m)")
        Duration registerTimeout,
        @DefaultValue("3s")
        @NotNull(message = "ps.server.register-retry is required (e.g. 3s)")
        @DurationMin(millis = 10, message = "ps.server.register-retry must be at least 10ms (e.g. 3s)")
        Duration registerRetry) {
}
