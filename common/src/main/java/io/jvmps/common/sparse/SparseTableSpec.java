package io.jvmps.common.sparse;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.regex.Pattern;

/**
 * Declares a sparse (embedding) table: rows of {@code dim} float32 values addressed by any 64-bit id,
 * created on the servers only ({@code init_in_server}) and never copied whole to a worker. A row no push
 * has touched reads as its initial value, which depends only on {@code (seed, id)}: uniform in
 * {@code [-initScale, initScale)}. Immutable; JSON on the wire.
 *
 * @param name      table name, 1..64 characters of {@code [A-Za-z0-9_.-]}
 * @param dim       values per row, 1..{@value #MAX_DIM}
 * @param seed      initializer seed
 * @param initScale half-width of the uniform initializer, finite and &gt;= 0 (0 = rows start at zero)
 * @param optimizer the servers' optimizer type for this table (SGD, MOMENTUM, ADAGRAD, ADAM, FTRL, ROWWISE_ADAGRAD), or
 *                  {@code null} for the servers' {@code ps.optimizer.type}; hyper-parameters are the servers'
 * @param initRows  {@code init_in_server} with a vocabulary size: rows {@code 0 .. initRows - 1} are created on
 *                  their servers when the table is declared (each server creates the ones it owns, at their
 *                  initial values); 0 or {@code null} = rows are created by the first push that touches them
 * @param lifecycle admission of new ids and eviction of idle rows ({@link RowLifecycle}); {@code null} =
 *                  {@link RowLifecycle#KEEP_ALL}
 */
public record SparseTableSpec(String name, int dim, long seed, float initScale, String optimizer, Long initRows,
                              RowLifecycle lifecycle) {
    /** Largest row width. */
    public static final int MAX_DIM = 4096;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** @throws PsException INVALID_ARGUMENT naming the bad field */
    public SparseTableSpec {
        initRows = initRows == null ? 0L : initRows;
        lifecycle = lifecycle == null ? RowLifecycle.KEEP_ALL : lifecycle;
        if (name == null || !NAME.matcher(name).matches()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table name must be 1..64 characters of "
                    + "[A-Za-z0-9_.-], got " + (name == null ? "none" : "'" + name + "'"));
        }
        if (dim < 1 || dim > MAX_DIM) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + name + "': dim must be 1.."
                    + MAX_DIM + ", got " + dim);
        }
        if (!Float.isFinite(initScale) || initScale < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + name
                    + "': initScale must be finite and >= 0, got " + initScale);
        }
        if (initRows < 0 || initRows > Integer.MAX_VALUE) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sparse table '" + name + "': initRows must be 0.."
                    + Integer.MAX_VALUE + ", got " + initRows);
        }
    }

    /** A table whose rows are kept forever, every id getting one on its first push. */
    public SparseTableSpec(String name, int dim, long seed, float initScale, String optimizer, Long initRows) {
        this(name, dim, seed, initScale, optimizer, initRows, RowLifecycle.KEEP_ALL);
    }

    /** @return this declaration with rows born and removed by {@code lifecycle} */
    public SparseTableSpec withLifecycle(RowLifecycle lifecycle) {
        return new SparseTableSpec(name, dim, seed, initScale, optimizer, initRows, lifecycle);
    }

    /** A table whose rows are created lazily, by the first push that touches each. */
    public SparseTableSpec(String name, int dim, long seed, float initScale, String optimizer) {
        this(name, dim, seed, initScale, optimizer, 0L);
    }
}
