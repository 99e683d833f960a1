package io.jvmps.server.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * This node as others see it, bound from {@code ps.node.*}.
 *
 * @param host              host name or IP this node advertises ({@code MS_NODE_HOST})
 * @param heartbeatInterval time between two heartbeats to the scheduler
 */
@Validated
@ConfigurationProperties("ps.node")
public record NodeProperties(
        @DefaultValue("127.0.0.1")
        @NotBlank(message = "ps.node.host must not be blank")
        String host,
        @DefaultValue("2s")
        @NotNull(message = "ps.node.heartbeat-interval is required (e.g. 2s)")
        @DurationMin(millis = 10, message = "ps.node.heartbeat-interval must be at least 10ms (e.g. 2s)")
        Duration heartbeatInterval) {
}
