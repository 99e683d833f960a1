package io.jvmps.common.node;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * This server or worker as the others see it, bound from {@code ps.node.*}. Checked when bound: a bad value fails
 * start-up with a message naming the property. Immutable.
 *
 * @param host              host name or IP this node advertises ({@code ps.node.host}, {@code MS_NODE_HOST})
 * @param heartbeatInterval time between two heartbeats to the scheduler ({@code ps.node.heartbeat-interval}),
 *                          at least 10 ms; keep it well under the scheduler's {@code ps.scheduler.heartbeat-timeout}
 */
@ConfigurationProperties("ps.node")
public record NodeProperties(@DefaultValue("127.0.0.1") String host, @DefaultValue("2s") Duration heartbeatInterval) {

    /** Checks the values. */
    @ConstructorBinding
    public NodeProperties {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("ps.node.host must not be blank");
        }
        if (heartbeatInterval == null || heartbeatInterval.compareTo(Duration.ofMillis(10)) < 0) {
            throw new IllegalArgumentException("ps.node.heartbeat-interval must be at least 10ms (e.g. 2s), got "
                    + heartbeatInterval);
        }
    }
}
