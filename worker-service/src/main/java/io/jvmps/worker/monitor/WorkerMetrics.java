package io.jvmps.worker.monitor;

import io.jvmps.worker.train.TrainingMeters;
import io.jvmps.worker.train.TrainingState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker's meters. Timers with p50/p95/p99: {@code ps.worker.step} (one training step) and
 * {@code ps.worker.phase} tagged {@code phase=pull|compute|push} (pull includes the wait for the
 * consistency barrier). Gauges: {@code ps.worker.loss} (last step), {@code ps.worker.accuracy} (test
 * accuracy on this worker's shard, NaN until evaluated), {@code ps.worker.global.step}. Counters:
 * {@code ps.worker.samples}, {@code ps.worker.bytes.pushed}, {@code ps.worker.bytes.pulled}.
 * Thread-safe.
 */
public final class WorkerMetrics implements TrainingMeters {
    private static final double[] PERCENTILES = {0.5, 0.95, 0.99};

    private final Timer step;
    private final Map<Phase, Timer> phases = new EnumMap<>(Phase.class);
    private final Counter samples;
    private final AtomicLong lossBits = new AtomicLong(Double.doubleToLongBits(Double.NaN));

    /**
     * @param registry where the meters live
     * @param state    the live training state the gauges read
     */
    public WorkerMetrics(MeterRegistry registry, TrainingState state) {
        this.step = Timer.builder("ps.worker.step").description("wall time of one training step")
                .publishPercentiles(PERCENTILES).register(registry);
        for (Phase phase : Phase.values()) {
            phases.put(phase, Timer.builder("ps.worker.phase")
                    .description("wall time of one pull (including the consistency wait), compute or push")
                    .tag("phase", phase.name().toLowerCase(java.util.Locale.ROOT))
                    .publishPercentiles(PERCENTILES).register(registry));
        }
        this.samples = Counter.builder("ps.worker.samples").description("training samples processed")
                .register(registry);
        Gauge.builder("ps.worker.loss", lossBits, bits -> Double.longBitsToDouble(bits.get()))
                .description("loss of the last training step").register(registry);
        Gauge.builder("ps.worker.accuracy", state, s -> s.get().accuracy())
                .description("test accuracy on this worker's shard (NaN until evaluated)").register(registry);
        Gauge.builder("ps.worker.global.step", state, s -> s.get().globalStep())
                .description("training steps completed").register(registry);
        FunctionCounter.builder("ps.worker.bytes.pushed", state, s -> s.get().bytesPushed()).baseUnit("bytes")
                .description("tensor bytes pushed to the servers").register(registry);
        FunctionCounter.builder("ps.worker.bytes.pulled", state, s -> s.get().bytesPulled()).baseUnit("bytes")
                .description("tensor bytes pulled from the servers").register(registry);
    }

    @Override
    public void phase(Phase phase, long nanos) {
        phases.get(phase).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void step(long nanos, double loss, int batch) {
        step.record(nanos, TimeUnit.NANOSECONDS);
        samples.increment(batch);
        lossBits.set(Double.doubleToLongBits(loss));
    }
}
