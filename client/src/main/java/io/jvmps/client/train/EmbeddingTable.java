package io.jvmps.client.train;

import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sparse.RowInitializer;
import io.jvmps.common.sparse.RowLifecycle;
import io.jvmps.common.sparse.SparseTableSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;


/**
 * Marks a variable of a SameDiff graph as an embedding table held on the parameter servers (what MindSpore's
 * {@code set_param_ps} does for an {@code EmbeddingLookup}, Paddle's {@code sparse_embedding}). The graph keeps
 * its ordinary form: the table is a float32 variable {@code [vocabulary, dim]} read only by
 * {@code gather(table, ids, 0)} ops whose {@code ids} are integer placeholders ({@code [n]}, or {@code [n, m]} for
 * a field of {@code m} ids per example, pooled by the graph), as many as the graph needs. Through the trainer, each
 * step pulls only the batch's distinct rows, the graph runs on them, and each distinct row's summed gradient is
 * pushed to the servers, whose optimizer for the table updates it.
 * <p>
 * Ids are 64-bit. With a bounded vocabulary (the default) every id must lie in {@code [0, vocabulary)}, the
 * variable's first dimension, and the exported graph holds the whole trained table as the variable again. A
 * {@link #hashed} table takes any 64-bit id (the variable's first dimension is then only a shape template).
 * Rows start at a pure function of {@code (seed, id)}, uniform in {@code [-initScale, initScale)}
 * ({@link #initialRows}), on every server and in a one-process run alike. Immutable.
 *
 * @param variable  the table's variable in the graph; also the table's name on the servers
 *                  (1..64 characters of {@code [A-Za-z0-9_.-]})
 * @param hashed    whether ids are unbounded (hashed) rather than row numbers below the vocabulary
 * @param initScale half-width of the rows' uniform initial values, finite and &gt;= 0
 * @param seed      the initializer's seed
 * @param optimizer the servers' optimizer for this table (SGD, MOMENTUM, ADAGRAD, ADAM, FTRL, ROWWISE_ADAGRAD), or {@code null}
 *                  for the servers' {@code ps.optimizer.type}
 * @param initRows  MindSpore's {@code init_in_server}: the rows of ids {@code 0 .. initRows - 1} are created on their
 *                  servers when the table is declared (memory reserved up front, a too small server cap refused at
 *                  once); 0, the default: a row is created by the first pull or push that touches it
 * @param lifecycle admission of new ids and eviction of idle rows on the servers ({@link RowLifecycle}; the
 *                  clock is the trainer's step, a GEO table's round); null: {@link RowLifecycle#KEEP_ALL}
 */
public record EmbeddingTable(String variable, boolean hashed, float initScale, long seed, String optimizer,
                             long initRows, RowLifecycle lifecycle) {
    /** Initial half-width of a table's values unless set. */
    public static final float DEFAULT_INIT_SCALE = 0.05f;

    /** Checks the name and the initializer by the servers' rules. */
    public EmbeddingTable {
        lifecycle = lifecycle == null ? RowLifecycle.KEEP_ALL : lifecycle;
        new SparseTableSpec(variable, 1, seed, initScale, optimizer, initRows, lifecycle);
    }

    /**
     * A bounded-vocabulary table with rows starting uniform in {@code [-0.05, 0.05)}, seeded by its name, and the
     * servers' optimizer.
     *
     * @param variable the table's variable in the graph
     * @throws PsException INVALID_ARGUMENT for a name the servers do not take
     */
    public static EmbeddingTable of(String variable) {
        return new EmbeddingTable(variable, false, DEFAULT_INIT_SCALE, variable == null ? 0 : variable.hashCode(), null,
                0, RowLifecycle.KEEP_ALL);
    }

    /**
     * A table declared as text, as a configuration file gives it: {@code NAME[:hashed][:init=SCALE][:seed=N]
     * [:optimizer=TYPE][:init-rows=N][:admit-after=N][:evict-after=STEPS][:evict-when-full]}, e.g.
     * {@code genreFactors:hashed:init=0} or {@code adId:hashed:admit-after=3:evict-after=5000}. Unset parts keep
     * {@link #of}'s defaults.
     *
     * @param spec the declaration
     * @return the table
     * @throws IllegalArgumentException naming the part that is not one of those, or a value that is not a number
     * @throws PsException              INVALID_ARGUMENT for a name, scale or optimizer the servers do not take
     */
    public static EmbeddingTable parse(String spec) {
        String[] parts = (spec == null ? "" : spec.strip()).split(":");
        EmbeddingTable out = of(parts[0].strip());
        for (int i = 1; i < parts.length; i++) {
            String part = parts[i].strip();
            int eq = part.indexOf('=');
            String key = (eq < 0 ? part : part.substring(0, eq)).toLowerCase(java.util.Locale.ROOT);
            String value = eq < 0 ? null : part.substring(eq + 1).strip();
            try {
                out = switch (key) {
                    case "hashed" -> value == null ? out.asHashed() : bad(spec, part);
                    case "init" -> value == null ? bad(spec, part) : out.withInit(Float.parseFloat(value), out.seed());
                    case "seed" -> value == null ? bad(spec, part) : out.withInit(out.initScale(), Long.parseLong(value));
                    case "optimizer" -> value == null ? bad(spec, part)
                            : out.withOptimizer(value.toUpperCase(java.util.Locale.ROOT));
                    case "init-rows" -> value == null ? bad(spec, part) : out.withInitRows(Long.parseLong(value));
                    case "admit-after" -> value == null ? bad(spec, part)
                            : out.withLifecycle(out.lifecycle().withAdmitAfter(Integer.parseInt(value)));
                    case "evict-after" -> value == null ? bad(spec, part)
                            : out.withLifecycle(out.lifecycle().withEvictAfterSteps(Long.parseLong(value)));
                    case "evict-when-full" -> value != null ? bad(spec, part)
                            : out.withLifecycle(out.lifecycle().withEvictWhenFull(true));
                    default -> bad(spec, part);
                };
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("table '" + spec + "': '" + part + "' needs a number");
            }
        }
        return out;
    }

    private static EmbeddingTable bad(String spec, String part) {
        throw new IllegalArgumentException("table '" + spec + "': '" + part + "' is not hashed, init=SCALE, seed=N, "
                + "optimizer=TYPE, init-rows=N, admit-after=N, evict-after=STEPS or evict-when-full (a table is "
                + "NAME[:hashed][:init=SCALE][:seed=N][:optimizer=TYPE][:init-rows=N][:admit-after=N]"
                + "[:evict-after=STEPS][:evict-when-full])");
    }

    /** @return the same table taking any 64-bit id */
    public EmbeddingTable asHashed() {
        return new EmbeddingTable(variable, true, initScale, seed, optimizer, initRows, lifecycle);
    }

    /** @return the same table with rows starting uniform in {@code [-scale, scale)} from {@code seed} */
    public EmbeddingTable withInit(float scale, long seed) {
        return new EmbeddingTable(variable, hashed, scale, seed, optimizer, initRows, lifecycle);
    }

    /** @return the same table updated by the servers' {@code type} optimizer rather than their default */
    public EmbeddingTable withOptimizer(String type) {
        return new EmbeddingTable(variable, hashed, initScale, seed, type, initRows, lifecycle);
    }

    /**
     * @param rows how many rows, ids {@code 0 .. rows - 1}, the servers create when the table is declared
     *             ({@code init_in_server}); 0: each on first use
     * @return the same table with those rows made up front
     * @throws PsException INVALID_ARGUMENT for a count below 0 or above {@link Integer#MAX_VALUE}
     */
    public EmbeddingTable withInitRows(long rows) {
        return new EmbeddingTable(variable, hashed, initScale, seed, optimizer, rows, lifecycle);
    }

    /**
     * @param lifecycle when the servers give a new id a row and remove an idle one
     * @return the same table with that lifecycle
     */
    public EmbeddingTable withLifecycle(RowLifecycle lifecycle) {
        return new EmbeddingTable(variable, hashed, initScale, seed, optimizer, initRows, lifecycle);
    }

    /** @return the servers' declaration of this table for rows of {@code dim} values */
    public SparseTableSpec spec(int dim) {
        return new SparseTableSpec(variable, dim, seed, initScale, optimizer, initRows, lifecycle);
    }

    /**
     * The table as the servers start it, for a one-process run of the same graph (set it as the variable's value).
     *
     * @return {@code [rows, dim]} float32: row {@code i} is id {@code i}'s initial row
     */
    public INDArray initialRows(int rows, int dim) {
        float[] values = new float[Math.multiplyExact(rows, dim)];
        for (int id = 0; id < rows; id++) {
            RowInitializer.fill(seed, id, initScale, values, id * dim, dim);
        }
        return Nd4j.create(values, new long[] {rows, dim}, DataType.FLOAT);
    }
}
