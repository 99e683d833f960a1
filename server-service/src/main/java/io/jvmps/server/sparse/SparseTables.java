package io.jvmps.server.sparse;

import io.jvmps.server.store.MemoryBudget;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.SparseTableSpec;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.optimizer.OptimizerType;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * The sparse tables of this server, by name. Declaring is idempotent: every worker declares the tables
 * it uses, the first creates them, later identical declarations are accepted, a conflicting one is
 * refused. Thread-safe.
 */
public final class SparseTables {
    private final ConcurrentMap<String, SparseTable> tables = new ConcurrentHashMap<>();
    private final OptimizerType defaultType;
    private final Function<OptimizerType, Optimizer> optimizers;
    private final MemoryBudget budget;
    private final ConcurrentMap<String, SparseRows> restoreOnDeclare = new ConcurrentHashMap<>();
    private volatile Function<LongPredicate, List<SparseRows>> ownedRows;
    private volatile java.util.function.Consumer<SparseTable> onCreate = table -> { };

    /**
     * @param defaultType the optimizer of tables that name none ({@code ps.optimizer.type})
     * @param optimizers  builds an optimizer of a type with the servers' hyper-parameters
     * @param budget      the memory cap shared by all tables
     */
    public SparseTables(OptimizerType defaultType, Function<OptimizerType, Optimizer> optimizers, MemoryBudget budget) {
        this.defaultType = defaultType;
        this.optimizers = optimizers;
        this.budget = budget;
    }

    /**
     * Creates the table if absent.
     *
     * @return the table (new or existing)
     * @throws PsException INVALID_ARGUMENT for an unknown optimizer or a declaration that conflicts with the existing one
     */
    public SparseTable declare(SparseTableSpec spec) {
        return declare(spec, id -> true);
    }

    /**
     * Creates the table if absent; a new table with {@code initRows} creates the rows {@code owned} accepts.
     *
     * @param owned which of the ids {@code 0 .. initRows - 1} this server holds
     * @return the table (new or existing)
     * @throws PsException INVALID_ARGUMENT for an unknown optimizer or a conflicting declaration;
     *                     RESOURCE_EXHAUSTED if the initial rows do not fit the cap (the table is not created)
     */
    public SparseTable declare(SparseTableSpec spec, LongPredicate owned) {
        OptimizerType type = typeOf(spec);
        if (!tables.containsKey(spec.name()) && restoreOnDeclare.containsKey(spec.name())) {
            readOwnedRows(owned);
        }
        SparseTable table = tables.computeIfAbsent(spec.name(), name -> {
            SparseTable created = new SparseTable(spec, optimizers.apply(type), budget);
            SparseRows saved = restoreOnDeclare.get(name);
            if (saved != null) {
                created.replaceWith(saved, owned); // refuses a declaration that differs from the checkpoint's
                restoreOnDeclare.remove(name, saved);
            } else {
                created.createRows(spec.initRows(), owned);
            }
            onCreate.accept(created);
            return created;
        });
        SparseTableSpec held = table.spec();
        if (held.dim() != spec.dim() || held.seed() != spec.seed() || held.initScale() != spec.initScale()
                || typeOf(held) != type || !held.initRows().equals(spec.initRows())
                || !held.lifecycle().equals(spec.lifecycle())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + spec.name() + "' exists as "
                    + describe(held) + "; this declaration asks for " + describe(spec));
        }
        return table;
    }

    /** @param listener told of every table this server creates from now on (e.g. to register its meters) */
    public void onCreate(java.util.function.Consumer<SparseTable> listener) {
        this.onCreate = listener;
    }

    /**
     * @return the table
     * @throws PsException UNKNOWN_KEY if no worker declared it
     */
    public SparseTable require(String name) {
        SparseTable table = tables.get(name);
        if (table == null) {
            throw new PsException(ErrorCode.UNKNOWN_KEY, "no sparse table '" + name + "' on this server; declare it "
                    + "first (tables here: " + tables.keySet() + ")");
        }
        return table;
    }

    /** @return the tables, in no particular order */
    public List<SparseTable> all() {
        return List.copyOf(tables.values());
    }

    /** @return every table's status on this server, by table name */
    public List<io.jvmps.common.sparse.SparseTableStatus> statuses() {
        return tables.values().stream().map(SparseTable::status)
                .sorted(java.util.Comparator.comparing(io.jvmps.common.sparse.SparseTableStatus::name)).toList();
    }

    /** @return a copy of every table's rows, by table name */
    public List<SparseRows> copyAll() {
        return tables.values().stream().map(SparseTable::copy)
                .sorted(java.util.Comparator.comparing(c -> c.spec().name())).toList();
    }

    /**
     * Puts the tables back as a checkpoint holds them: a declared table gets the checkpoint's rows that
     * {@code owned} accepts, or none if the checkpoint does not have it (it was declared after); a table the
     * checkpoint has but nobody declared here yet gets its rows when it is declared.
     *
     * @param saved the checkpoint's tables, one copy per table
     * @param owned which ids this server holds
     */
    public void restore(List<SparseRows> saved, LongPredicate owned) {
        restoreOnDeclare.clear();
        ownedRows = null;
        java.util.Map<String, SparseRows> byName = new java.util.HashMap<>();
        saved.forEach(rows -> byName.put(rows.spec().name(), rows));
        for (SparseTable table : tables.values()) {
            table.replaceWith(byName.remove(table.spec().name()), owned);
        }
        restoreOnDeclare.putAll(byName);
    }

    /**
     * Keeps a checkpoint's tables for their declaration (at start-up, before any worker declared them):
     * a table declared later starts from the saved rows this server owns instead of its initial rows.
     */
    public void restoreWhenDeclared(List<SparseRows> saved) {
        restoreWhenDeclared(saved, null);
    }

    /**
     * Same, reading the rows only at the first declaration, when this server knows which ids it owns: a
     * restarted server then holds its share of a checkpointed table, never the whole table.
     *
     * @param declared  the checkpoint's tables (their rows may be left out)
     * @param ownedRows reads the checkpoint's tables again keeping the rows a predicate accepts; null when
     *                  {@code declared} holds the rows
     */
    public synchronized void restoreWhenDeclared(List<SparseRows> declared,
                                                 Function<LongPredicate, List<SparseRows>> ownedRows) {
        restoreOnDeclare.clear();
        declared.forEach(rows -> restoreOnDeclare.put(rows.spec().name(), rows));
        this.ownedRows = ownedRows;
    }

    /** Reads the pending checkpoint's rows this server owns, once, before the first table is built from them. */
    private synchronized void readOwnedRows(LongPredicate owned) {
        Function<LongPredicate, List<SparseRows>> reader = ownedRows;
        if (reader == null) {
            return;
        }
        for (SparseRows rows : reader.apply(owned)) {
            restoreOnDeclare.replace(rows.spec().name(), rows);
        }
        ownedRows = null;
    }

    /** @return the shared memory cap */
    public MemoryBudget budget() {
        return budget;
    }

    private OptimizerType typeOf(SparseTableSpec spec) {
        if (spec.optimizer() == null || spec.optimizer().isBlank()) {
            return defaultType;
        }
        try {
            return OptimizerType.valueOf(spec.optimizer().trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + spec.name() + "': unknown optimizer '"
                    + spec.optimizer() + "'; accepted: " + Arrays.toString(OptimizerType.values()));
        }
    }

    private String describe(SparseTableSpec spec) {
        return "dim=" + spec.dim() + ", seed=" + spec.seed() + ", initScale=" + spec.initScale() + ", optimizer="
                + typeOf(spec) + ", initRows=" + spec.initRows() + ", admitAfter=" + spec.lifecycle().admitAfter()
                + ", evictAfterSteps=" + spec.lifecycle().evictAfterSteps() + ", evictWhenFull="
                + spec.lifecycle().evictWhenFull();
    }
}
