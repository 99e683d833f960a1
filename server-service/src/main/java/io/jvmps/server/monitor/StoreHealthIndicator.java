package io.jvmps.server.monitor;

import io.jvmps.server.cluster.ServerIdentity;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the parameter store ({@code /actuator/health/parameterServer}, part of the readiness
 * group): OUT_OF_SERVICE until the scheduler has assigned this server a rank, UP after, with rank,
 * registration state, slice counts and versions as details.
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
        // Not ready before the scheduler gave a rank: workers cannot find this server yet.
        Health.Builder health = identity.assigned() ? Health.up() : Health.outOfService();
        return health.withDetail("rank", s.rank())
                .withDetail("registered", identity.assigned())
                .withDetail("slices", s.slices())
                .withDetail("bytes", s.bytes())
                .withDetail("minVersion", s.minVersion())
                .withDetail("maxVersion", s.maxVersion())
                .withDetail("consistency", s.consistency())
                .build();
    }
}
