package io.jvmps.worker.monitor;

import io.jvmps.worker.train.progress.TrainingMeters;
import io.jvmps.worker.train.progress.TrainingState;
import io.jvmps.common.embedding.CacheStats;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
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
    private final MeterRegistry registry;
    private final Map<Phase, Timer> phases = new EnumMap<>(Phase.class);
    private final Counter samples;
    private final AtomicLong lossBits = new AtomicLong(Double.doubleToLongBits(Double.NaN));
    /** The cache counters' suppliers: a function counter holds its object weakly, and a collected one stops counting. */
    private final java.util.List<Supplier<CacheStats>> cacheSources = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param registry where the meters live
     * @param state    the live training state the gauges read
     */
    public WorkerMetrics(MeterRegistry registry, TrainingState state) {
        this.registry = registry;
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

    @Override
    public void skippedRows(String set, long rows) {
        io.micrometer.core.instrument.Gauge.builder("ps.worker.data.rows.skipped", () -> rows)
                .description("bad data rows left out (ps.worker.dataset.csv.skip-bad-rows)").tags(Tags.of("set", set))
                .register(registry);
    }

    @Override
    public void embeddingCache(String table, Supplier<CacheStats> stats) {
        Tags tags = Tags.of("table", table);
        cacheSources.add(stats);
        cacheCounter("ps.worker.embedding.cache.hits", "distinct ids of a batch found in the cache", tags,
                stats, s -> s.hits());
        cacheCounter("ps.worker.embedding.cache.misses", "distinct ids of a batch read from the servers", tags,
                stats, s -> s.misses());
        cacheCounter("ps.worker.embedding.cache.lookups", "ids looked up, repeats included", tags, stats,
                s -> s.positions());
        cacheCounter("ps.worker.embedding.cache.lookup.hits", "ids looked up whose row was resident", tags, stats,
                s -> s.positionHits());
        cacheCounter("ps.worker.embedding.cache.evictions", "rows evicted", tags, stats, s -> s.evictions());
        cacheCounter("ps.worker.embedding.cache.writebacks", "changed rows written back to the servers", tags,
                stats, s -> s.writeBacks());
        FunctionCounter.builder("ps.worker.embedding.cache.prefetch.wait", stats,
                        s -> s.get().prefetchWaitNanos() / 1e9).baseUnit("seconds").tags(tags)
                .description("time lookups waited for a background prefetch").register(registry);
    }

    private void cacheCounter(String name, String description, Tags tags,
                              Supplier<CacheStats> stats,
                              ToLongFunction<CacheStats> value) {
        FunctionCounter.builder(name, stats, s -> value.applyAsLong(s.get()))
                .tags(tags).description(description).register(registry);
    }
}
