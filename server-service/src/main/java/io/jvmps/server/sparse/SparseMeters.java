package io.jvmps.server.sparse;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Gauges of the sparse tables: {@code ps.server.sparse.rows} (rows created, all tables),
 * {@code ps.server.sparse.bytes} (bytes reserved) and {@code ps.server.sparse.max.bytes} (the cap); per table (tag
 * {@code table}), registered when the table is created: {@code ps.server.sparse.table.rows} and
 * {@code ps.server.sparse.table.bytes} (gauges), {@code ps.server.sparse.rows.admitted} (rows pushes created),
 * {@code ps.server.sparse.rows.evicted} (idle rows removed) and {@code ps.server.sparse.gradients.dropped} (row
 * gradients of ids not admitted yet), counters.
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
        tables.onCreate(table -> registerTable(registry, table));
    }

    private static void registerTable(MeterRegistry registry, SparseTable table) {
        String name = table.spec().name();
        Gauge.builder("ps.server.sparse.table.rows", table, SparseTable::rows).tag("table", name)
                .description("rows this server holds for the table").register(registry);
        Gauge.builder("ps.server.sparse.table.bytes", table, SparseTable::heldBytes).tag("table", name)
                .baseUnit("bytes").description("bytes this server holds for the table").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("ps.server.sparse.rows.admitted", table,
                        SparseTable::admitted).tag("table", name)
                .description("rows pushes created (ids admitted)").register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("ps.server.sparse.rows.evicted", table,
                        SparseTable::evicted).tag("table", name)
                .description("rows removed after no push touched them for the table's evictAfterSteps")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("ps.server.sparse.gradients.dropped", table,
                        SparseTable::droppedGradients).tag("table", name)
                .description("row gradients dropped because their id was not admitted yet").register(registry);
    }
}
