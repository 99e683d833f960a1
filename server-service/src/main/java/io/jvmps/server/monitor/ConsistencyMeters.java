package io.jvmps.server.monitor;

import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.store.DenseStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Registers meters that read the policy and the store: {@code ps.server.updates.applied},
 * {@code ps.server.pushes.accepted} counters and the {@code ps.server.slices} and
 * {@code ps.server.pulls.waiting} gauges. Stateless.
 */
public final class ConsistencyMeters {
    private ConsistencyMeters() {
    }

    /** Registers the meters. */
    public static void register(MeterRegistry registry, ConsistencyPolicy policy, DenseStore store) {
        FunctionCounter.builder("ps.server.updates.applied", policy, ConsistencyPolicy::updatesApplied)
                .description("slice updates applied by the optimizer").register(registry);
        FunctionCounter.builder("ps.server.pushes.accepted", policy, ConsistencyPolicy::pushesAccepted)
                .description("gradient pushes accepted").register(registry);
        Gauge.builder("ps.server.slices", store, s -> s.slices().size())
                .description("dense slices held").register(registry);
        Gauge.builder("ps.server.ssp.staleness.served.max", policy, ConsistencyPolicy::maxStalenessServed)
                .description("SSP: largest gap between a served pull's step and the slowest live worker's clock "
                        + "(at most ps.consistency.staleness; 0 in other modes)").register(registry);
        Gauge.builder("ps.server.pulls.waiting", store, DenseStore::waitingPulls)
                .description("pulls waiting for a slice version not reached yet").register(registry);
    }
}
