package io.jvmps.server.monitor;

import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.store.DenseStore;
import io.jvmps.server.consistency.StepWaits;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.TimeUnit;

/**
 * Registers meters that read the policy and the store: {@code ps.server.updates.applied},
 * {@code ps.server.pushes.accepted} counters, the {@code ps.server.slices} and
 * {@code ps.server.pulls.waiting} gauges, and SYNC's {@code ps.server.sync.step.wait} timer. Stateless.
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
        StepWaits waits = policy.stepWaits();
        FunctionTimer.builder("ps.server.sync.step.wait", waits, StepWaits::steps, StepWaits::totalNanos,
                        TimeUnit.NANOSECONDS)
                .description("SYNC: per slice and step, time from the first worker's gradient to the last one "
                        + "(how long the fastest worker waited for the slowest; 0 steps in other modes)")
                .register(registry);
        Gauge.builder("ps.server.sync.step.wait.max", waits, w -> w.maxNanos() / 1e9)
                .description("SYNC: the longest such wait so far").baseUnit("seconds").register(registry);
    }
}
