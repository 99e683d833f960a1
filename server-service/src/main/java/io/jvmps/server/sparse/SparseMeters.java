package io.jvmps.server.sparse;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Gauges of the sparse tables: {@code ps.server.sparse.rows} (rows created, all tables),
 * {@code ps.server.sparse.bytes} (bytes reserved) and {@code ps.server.sparse.max.bytes} (the cap).
 */
public final class SparseMeters {
    private SparseMeters() {
    }

    /** Registers the gauges. */
    public static void register(MeterRegistry registry, SparseTables tables) {
        Gauge.builder("ps.server.sparse.rows", tables, t -> t.all().stream().mapToLong(SparseTable::rows).sum())
                .description("sparse table rows created on this server").register(registry);
        Gauge.builder("ps.server.sparse.bytes", tables, t -> t.budget().used()).baseUnit("bytes")
                .description("bytes reserved by sparse tables on this server").register(registry);
        Gauge.builder("ps.server.sparse.max.bytes", tables, t -> t.budget().max()).baseUnit("bytes")
                .description("ps.sparse.max-bytes: the cap on sparse table bytes").register(registry);
    }
}
