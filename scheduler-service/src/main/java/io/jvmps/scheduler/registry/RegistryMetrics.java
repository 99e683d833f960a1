package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Locale;

/**
 * Publishes the registry as metrics: gauge {@code ps.cluster.nodes} (tags {@code role}, {@code state}),
 * gauge {@code ps.cluster.epoch}, and counter {@code ps.scheduler.registrations} (tag {@code role}).
 * All are read from the registry on scrape, so nothing can drift.
 */
@Component
public class RegistryMetrics implements MeterBinder {
    private static final List<NodeRole> ROLES = List.of(NodeRole.SERVER, NodeRole.WORKER);

    private final NodeRegistry registry;

    /** @param registry the registry to observe */
    public RegistryMetrics(NodeRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        for (NodeRole role : ROLES) {
            for (NodeState state : NodeState.values()) {
                Gauge.builder("ps.cluster.nodes", registry, r -> r.count(role, state))
                        .description("Registered nodes by role and state")
                        .tag("role", role.label())
                        .tag("state", state.name().toLowerCase(Locale.ROOT))
                        .register(meters);
            }
            FunctionCounter.builder("ps.scheduler.registrations", registry, r -> r.registrations(role))
                    .description("Registrations accepted (new, re-registered and takeovers)")
                    .tag("role", role.label())
                    .register(meters);
        }
        Gauge.builder("ps.cluster.epoch", registry, NodeRegistry::epoch)
                .description("Epoch of the cluster view")
                .register(meters);
    }
}
