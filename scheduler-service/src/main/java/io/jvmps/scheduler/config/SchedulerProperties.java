package io.jvmps.scheduler.config;

import jakarta.validation.constraints.AssertTrue;
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
 * The scheduler's own settings, bound from {@code ps.scheduler.*} and validated at start-up.
 *
 * @param host                 address servers and workers use to reach the scheduler ({@code MS_SCHED_HOST})
 * @param port                 HTTP port, 1..65535 ({@code MS_SCHED_PORT}); {@code server.port} follows it
 * @param heartbeatTimeout     a node without a heartbeat for this long is marked DEAD
 * @param failureCheckInterval how often the failure detector looks; must be shorter than the timeout
 * @param nodeIdSeed           seed of the random suffix of node ids, or null for an unseeded source
 * @param stateDir             directory where the job's state (ranks, leases, finished partitions, results) is
 *                             kept so that it survives a restart of the scheduler; empty = in memory only
 */
@Validated
@ConfigurationProperties("ps.scheduler")
public record SchedulerProperties(
        @DefaultValue("127.0.0.1")
        @NotBlank(message = "ps.scheduler.host must not be blank")
        String host,
        @DefaultValue("8080")
        @Min(value = 1, message = "ps.scheduler.port must be between 1 and 65535")
        @Max(value = 65535, message = "ps.scheduler.port must be between 1 and 65535")
        int port,
        @DefaultValue("30s")
        @NotNull(message = "ps.scheduler.heartbeat-timeout is required (e.g. 30s)")
        @DurationMin(millis = 1, message = "ps.scheduler.heartbeat-timeout must be positive (e.g. 30s)")
        Duration heartbeatTimeout,
        @DefaultValue("1s")
        @NotNull(message = "ps.scheduler.failure-check-interval is required (e.g. 1s)")
        @DurationMin(millis = 1, message = "ps.scheduler.failure-check-interval must be positive (e.g. 1s)")
        Duration failureCheckInterval,
        Long nodeIdSeed,
        @DefaultValue("")
        String stateDir) {

    /** @return true when the check interval is shorter than the heartbeat timeout (or either is missing) */
    @AssertTrue(message = "ps.scheduler.failure-check-interval must be shorter than ps.scheduler.heartbeat-timeout")
    public boolean isCheckIntervalBelowTimeout() {
        return heartbeatTimeout == null || failureCheckInterval == null
                || failureCheckInterval.compareTo(heartbeatTimeout) < 0;
    }
}
