package io.jvmps.server.monitor;

import io.jvmps.server.cluster.ServerIdentity;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the parameter store ({@code /actuator/health/parameterServer}): UP whenever the server
 * can answer (it serves RSocket before registration too), with rank, registration state, slice
 * counts and versions as details.
 */
public final class StoreHealthIndicator implements HealthIndicator {
    private final StatusReporter status;
    private final ServerIdentity identity;

    /**
     * @param status   status source
     * @param identity rank and node id
     */
    public StoreHealthIndicator(StatusReporter status, ServerIdentity identity) {
        this.status = status;
        this.identity = identity;
    }

    @Override
    public Health health() {
        ServerStatus s = status.status();
        return Health.up().withDetail("rank", s.rank())
                .withDetail("registered", identity.assigned())
                .withDetail("slices", s.slices())
                .withDetail("bytes", s.bytes())
                .withDetail("minVersion", s.minVersion())
                .withDetail("maxVersion", s.maxVersion())
                .withDetail("consistency", s.consistency())
                .build();
    }
}
