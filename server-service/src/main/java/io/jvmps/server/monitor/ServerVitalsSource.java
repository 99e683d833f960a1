package io.jvmps.server.monitor;

import io.jvmps.common.protocol.ServerVitals;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What this server sends the scheduler with each heartbeat ({@link ServerVitals}): heap use, the p99 of successful
 * dense pushes and pulls from the {@link ServerMetrics} timers, the newest checkpoint's step and age from the
 * checkpoint gauges (none without checkpoints), and the SSP staleness served. Reads meters only; thread-safe.
 */
public final class ServerVitalsSource implements Supplier<ServerVitals> {
    private final MeterRegistry registry;
    private final ConsistencyPolicy policy;
    private final Runtime runtime = Runtime.getRuntime();
    private final Supplier<java.util.List<io.jvmps.common.sparse.SparseTableStatus>> sparseTables;

    /**
     * @param registry where the server's meters are
     * @param policy   the consistency policy, for the staleness served
     */
    public ServerVitalsSource(MeterRegistry registry, ConsistencyPolicy policy) {
        this(registry, policy, java.util.List::of);
    }

    /** @param sparseTables this server's sparse tables' status, by name */
    public ServerVitalsSource(MeterRegistry registry, ConsistencyPolicy policy,
                              Supplier<java.util.List<io.jvmps.common.sparse.SparseTableStatus>> sparseTables) {
        this.registry = registry;
        this.policy = policy;
        this.sparseTables = sparseTables;
    }

    @Override
    public ServerVitals get() {
        long max = runtime.maxMemory();
        return new ServerVitals(runtime.totalMemory() - runtime.freeMemory(), max == Long.MAX_VALUE ? 0 : max,
                p99Seconds("ps.server.push"), p99Seconds("ps.server.pull"),
                (long) gauge("ps.server.checkpoint.step"), gauge("ps.server.checkpoint.age"),
                Math.max(0, policy.maxStalenessServed()), sparseTables.get());
    }

    /** @return the 99th percentile of the successful operations' times, seconds; -1 before the first */
    private double p99Seconds(String timer) {
        Timer success = registry.find(timer).tag("outcome", "success").timer();
        if (success == null || success.count() == 0) {
            return -1;
        }
        for (ValueAtPercentile p : success.takeSnapshot().percentileValues()) {
            if (p.percentile() == 0.99) {
                return p.value(TimeUnit.NANOSECONDS) / 1e9;
            }
        }
        return -1;
    }

    /** @return the gauge's value, or -1 when it is not registered (no checkpoints) or not a number */
    private double gauge(String name) {
        Gauge gauge = registry.find(name).gauge();
        double value = gauge == null ? -1 : gauge.value();
        return Double.isFinite(value) && value >= -1 ? value : -1;
    }
}
