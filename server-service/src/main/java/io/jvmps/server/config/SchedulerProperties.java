package io.jvmps.server.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * Where the scheduler is, bound from {@code ps.scheduler.*}.
 *
 * @param enabled        register with the scheduler and heartbeat; false for stand-alone runs and tests
 *                       (the rank then comes from {@code ps.server.rank})
 * @param host           scheduler host ({@code MS_SCHED_HOST})
 * @param port           scheduler HTTP port ({@code MS_SCHED_PORT})
 * @param requestTimeout timeout of one REST call to the scheduler
 */
@Validated
@ConfigurationProperties("ps.scheduler")
public record SchedulerProperties(
        @DefaultValue("true")
        boolean enabled,
        @DefaultValue("127.0.0.1")
        @NotBlank(message = "ps.scheduler.host must not be blank")
        String host,
        @DefaultValue("8080")
        @Min(value = 1, message = "ps.scheduler.port must be between 1 and 65535")
        @Max(value = 65535, message = "ps.scheduler.port must be between 1 and 65535")
        int port,
        @DefaultValue("5s")
        @NotNull(message = "ps.scheduler.request-timeout is required (e.g. 5s)")
        @DurationMin(millis = 1, message = "ps.scheduler.request-timeout must be positive (e.g. 5s)")
        Duration requestTimeout) {
}
