package io.jvmps.common.node;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Where a server or a worker finds the scheduler, bound from {@code ps.scheduler.*} by both (the scheduler binds
 * its own settings under the same prefix). Checked when bound: a bad value fails start-up with a message naming
 * the property. Immutable.
 *
 * @param enabled        register with the scheduler and heartbeat ({@code ps.scheduler.enabled}); a server may set
 *                       false for stand-alone runs and tests (its rank then comes from {@code ps.server.rank}); a
 *                       worker always needs the scheduler and refuses to start without it
 * @param host           scheduler host ({@code ps.scheduler.host}, {@code MS_SCHED_HOST})
 * @param port           scheduler HTTP port, 1..65535 ({@code ps.scheduler.port}, {@code MS_SCHED_PORT})
 * @param requestTimeout deadline of one REST call to the scheduler ({@code ps.scheduler.request-timeout}), &gt; 0
 */
@ConfigurationProperties("ps.scheduler")
public record SchedulerAddress(@DefaultValue("true") boolean enabled, @DefaultValue("127.0.0.1") String host,
                               @DefaultValue("8080") int port, @DefaultValue("10s") Duration requestTimeout) {

    /** Checks the values. */
    @ConstructorBinding
    public SchedulerAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("ps.scheduler.host must not be blank");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("ps.scheduler.port must be between 1 and 65535, got " + port);
        }
        if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("ps.scheduler.request-timeout must be positive (e.g. 10s), got "
                    + requestTimeout);
        }
    }
}
