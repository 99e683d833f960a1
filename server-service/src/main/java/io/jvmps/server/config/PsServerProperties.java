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
 * @param streamIdleTimeout how long an init or push stream may go without a frame (before its first one,
 *                        between two, before it completes); past it the stream is cancelled and answered
 *                        with {@code TIMEOUT}, and what it had sent is dropped
 * @param maxInflightBytes bytes all inbound init and push streams may hold at once (reserved when a tensor's
 *                        first frame announces it); beyond it a stream fails with {@code RESOURCE_EXHAUSTED}
 * @param maxDenseBytes   parameter bytes (float32 values) this server's dense slices may hold; an init beyond
 *                        it fails with {@code RESOURCE_EXHAUSTED} and creates nothing
 * @param setupTimeout    how long an RSocket connection may go without sending its SETUP frame before it is
 *                        closed (a connection that sends nothing, or no RSocket at all)
 * @param pushApply       when a dense push is applied: WHOLE_PUSH (after every slice of it arrived and was checked;
 *                        all or nothing) or PER_SLICE (each slice as it arrives: less memory, SYNC only)
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
        Duration registerRetry,
        @DefaultValue("30s")
        @NotNull(message = "ps.server.stream-idle-timeout is required (e.g. 30s)")
        @DurationMin(millis = 1, message = "ps.server.stream-idle-timeout must be positive (e.g. 30s)")
        Duration streamIdleTimeout,
        @DefaultValue("1073741824")
        @Min(value = 4, message = "ps.server.max-inflight-bytes must be at least 4 (e.g. 1073741824)")
        long maxInflightBytes,
        @DefaultValue("4294967296")
        @Min(value = 4, message = "ps.server.max-dense-bytes must be at least 4 (e.g. 4294967296)")
        long maxDenseBytes,
        @DefaultValue("5s")
        @NotNull(message = "ps.server.setup-timeout is required (e.g. 5s)")
        @DurationMin(millis = 1, message = "ps.server.setup-timeout must be positive (e.g. 5s)")
        Duration setupTimeout,
        @DefaultValue("WHOLE_PUSH")
        @NotNull(message = "ps.server.push-apply is required; accepted: WHOLE_PUSH, PER_SLICE")
        PushApply pushApply) {
}
