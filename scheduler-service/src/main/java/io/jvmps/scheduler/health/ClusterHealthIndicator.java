package io.jvmps.scheduler.health;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Actuator health contributor {@code cluster}: the scheduler is UP whenever it can take registrations;
 * the details show the epoch and alive/dead/expected counts so an operator sees missing nodes at a glance.
 */
@Component("cluster")
public class ClusterHealthIndicator implements HealthIndicator {
    private final NodeRegistry registry;

    /** @param registry the registry to summarise */
    public ClusterHealthIndicator(NodeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Health health() {
        Health.Builder builder = Health.up().withDetail("epoch", registry.epoch());
        for (NodeRole role : new NodeRole[] {NodeRole.SERVER, NodeRole.WORKER}) {
            builder.withDetail(role.label() + "s", java.util.Map.of(
                    "expected", registry.expected(role),
                    "alive", registry.count(role, NodeState.ALIVE),
                    "dead", registry.count(role, NodeState.DEAD),
                    "finished", registry.count(role, NodeState.FINISHED)));
        }
        return builder.build();
    }
}
