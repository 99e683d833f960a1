package io.jvmps.server.sparse;

import java.util.ArrayList;
import java.util.List;

/**
 * Row storage of one table: blocks of flat float arrays, each row {@code stride} floats
 * ({@code [values | optimizer state slots]}), with the row's id and update count in parallel primitive
 * arrays. No object per row. Every block but the last holds {@code rowsPerBlock} rows (a power of two, 0.5 M to 1 M floats); the
 * last starts at {@value #FIRST_ROWS} rows and doubles until it is full, so a small table holds (and is charged
 * for) little more than its rows. A table that evicts rows also keeps each row's last-touched clock. Rows are
 * packed: removing one moves the last row into its place ({@link #removeSwap}), so a row's index changes only
 * then; growing the last block copies its arrays, so callers re-read {@link #block} after an append. Not
 * thread-safe: the table's lock guards it.
 */
final class RowBlocks {
    private static final int TARGET_BLOCK_FLOATS = 1 << 20;
    /** Rows a new block starts with. */
    static final int FIRST_ROWS = 16;
    /** Index bytes charged per row for the id-to-row map (16 bytes per entry at a 0.65 load factor, rounded up). */
    static final int INDEX_BYTES_PER_ROW = 32;

    private final int stride;
    private final int rowsPerBlock;
    /** log2 of {@link #rowsPerBlock}: a row's block and place in it are a shift and a mask, not divisions. */
    private final int blockShift;
    private final int rowMask;
    private final float initialState;
    private final int dim;
    private final List<float[]> values = new ArrayList<>();
    private final List<long[]> ids = new ArrayList<>();
    private final List<int[]> steps = new ArrayList<>();
    /** Each row's last-touched table clock, or null when the table does not evict. */
    private final List<long[]> touched;
    private int rows;
    /** Rows the last block's arrays hold. */
    private int lastCapacity;

    /** @param stateFloats optimizer state floats per row ({@link io.jvmps.optimizer.Optimizer#rowStateFloats}) */
    RowBlocks(int dim, int stateFloats, float initialState) {
        this(dim, stateFloats, initialState, false);
    }

    /** @param tracksTouch keep each row's last-touched clock (a table that evicts idle rows) */
    RowBlocks(int dim, int stateFloats, float initialState, boolean tracksTouch) {
        this.dim = dim;
        this.touched = tracksTouch ? new ArrayList<>() : null;
        this.stride = dim + stateFloats;
        this.rowsPerBlock = Integer.highestOneBit(Math.max(1, TARGET_BLOCK_FLOATS / stride));
        this.blockShift = Integer.numberOfTrailingZeros(rowsPerBlock);
        this.rowMask = rowsPerBlock - 1;
        this.initialState = initialState;
    }

    /** @return bytes one row of capacity costs: values and state, id, update count and its index entry */
    private long rowBytes() {
        return (long) stride * 4 + 8 + 4 + (touched == null ? 0 : 8) + INDEX_BYTES_PER_ROW;
    }

    /** @return bytes the allocated capacity holds (what the table is charged for) */
    long heldBytes() {
        return capacity() * rowBytes();
    }

    /** @return bytes more the capacity needs to hold {@code newRows} more rows (0 when they fit) */
    long bytesFor(int newRows) {
        long needed = rows + (long) newRows;
        long capacity = capacity();
        int blocks = values.size();
        int last = lastCapacity;
        while (capacity < needed) { // the same steps as grow(), without allocating
            if (blocks == 0 || last == rowsPerBlock) {
                blocks++;
                last = Math.min(FIRST_ROWS, rowsPerBlock);
                capacity += last;
            } else {
                int grown = Math.min(2 * last, rowsPerBlock);
                capacity += grown - last;
                last = grown;
            }
        }
        return (capacity - capacity()) * rowBytes();
    }

    /** @return rows the allocated blocks hold room for */
    long capacity() {
        return values.isEmpty() ? 0 : (long) (values.size() - 1) * rowsPerBlock + lastCapacity;
    }

    private void grow() {
        if (values.isEmpty() || lastCapacity == rowsPerBlock) {
            lastCapacity = Math.min(FIRST_ROWS, rowsPerBlock);
            values.add(new float[lastCapacity * stride]);
            ids.add(new long[lastCapacity]);
            steps.add(new int[lastCapacity]);
            if (touched != null) {
                touched.add(new long[lastCapacity]);
            }
            return;
        }
        int last = values.size() - 1;
        lastCapacity = Math.min(2 * lastCapacity, rowsPerBlock);
        values.set(last, java.util.Arrays.copyOf(values.get(last), lastCapacity * stride));
        ids.set(last, java.util.Arrays.copyOf(ids.get(last), lastCapacity));
        steps.set(last, java.util.Arrays.copyOf(steps.get(last), lastCapacity));
        if (touched != null) {
            touched.set(last, java.util.Arrays.copyOf(touched.get(last), lastCapacity));
        }
    }

    /** Appends a row whose values are already in {@code initial[offset .. offset + dim)}; returns its index. */
    int append(long id, float[] initial, int offset) {
        if (rows == capacity()) {
            grow();
        }
        int row = rows++;
        float[] block = block(row);
        int at = offset(row);
        System.arraycopy(initial, offset, block, at, dim);
        if (stride > dim) { // a slot a removed row left holds its state
            java.util.Arrays.fill(block, at + dim, at + stride, initialState);
        }
        ids.get(row >>> blockShift)[row & rowMask] = id;
        steps.get(row >>> blockShift)[row & rowMask] = 0;
        if (touched != null) {
            touched.get(row >>> blockShift)[row & rowMask] = 0;
        }
        return row;
    }

    /** Sets the row's last-touched clock (a table that evicts). */
    void touch(int row, long clock) {
        touched.get(row >>> blockShift)[row & rowMask] = clock;
    }

    /** @return the row's last-touched clock (a table that evicts) */
    long touched(int row) {
        return touched.get(row >>> blockShift)[row & rowMask];
    }

    /**
     * Removes a row by moving the last row into its place (values, state, id, update count, clock).
     *
     * @return true when a row moved: the caller's index must then map {@link #id}{@code (row)} to {@code row}
     */
    boolean removeSwap(int row) {
        int last = --rows;
        if (row == last) {
            return false;
        }
        System.arraycopy(block(last), offset(last), block(row), offset(row), stride);
        ids.get(row >>> blockShift)[row & rowMask] = id(last);
        steps.get(row >>> blockShift)[row & rowMask] = steps.get(last >>> blockShift)[last & rowMask];
        if (touched != null) {
            touch(row, touched(last));
        }
        return true;
    }

    /**
     * Drops trailing blocks no row uses any more (after removals).
     *
     * @return bytes of capacity given up
     */
    long trim() {
        long before = heldBytes();
        while (!values.isEmpty() && rows <= (long) (values.size() - 1) * rowsPerBlock) {
            int last = values.size() - 1;
            values.remove(last);
            ids.remove(last);
            steps.remove(last);
            if (touched != null) {
                touched.remove(last);
            }
            lastCapacity = values.isEmpty() ? 0 : rowsPerBlock;
        }
        return before - heldBytes();
    }

    float[] block(int row) {
        return values.get(row >>> blockShift);
    }

    int offset(int row) {
        return (row & rowMask) * stride;
    }

    /** @return the row's update count after adding one */
    int nextStep(int row) {
        int[] block = steps.get(row >>> blockShift);
        return ++block[row & rowMask];
    }

    /** @return gradient updates the row has had */
    int updates(int row) {
        return steps.get(row >>> blockShift)[row & rowMask];
    }

    /** @return true when rows keep their last-touched clock */
    boolean tracksTouch() {
        return touched != null;
    }

    long id(int row) {
        return ids.get(row >>> blockShift)[row & rowMask];
    }

    int rows() {
        return rows;
    }

    /** @return floats per row: the values, then each optimizer state slot */
    int stride() {
        return stride;
    }

    /** Copies every row, in row order, into a snapshot of the table. */
    SparseRows copy(io.jvmps.common.sparse.SparseTableSpec spec, long updates) {
        long[] idCopy = new long[rows];
        int[] stepCopy = new int[rows];
        float[] data = new float[Math.multiplyExact(rows, stride)];
        for (int row = 0; row < rows; row++) {
            idCopy[row] = id(row);
            stepCopy[row] = steps.get(row >>> blockShift)[row & rowMask];
            System.arraycopy(block(row), offset(row), data, row * stride, stride);
        }
        long[] touchedCopy = null;
        if (touched != null) {
            touchedCopy = new long[rows];
            for (int row = 0; row < rows; row++) {
                touchedCopy[row] = touched(row);
            }
        }
        return new SparseRows(spec, stride - dim, updates, idCopy, stepCopy, data, touchedCopy, null);
    }

    /** Drops every row and block. */
    void clear() {
        values.clear();
        ids.clear();
        steps.clear();
        if (touched != null) {
            touched.clear();
        }
        rows = 0;
        lastCapacity = 0;
    }

    /** Appends row {@code index} of a snapshot as it is: values, optimizer state and update count. */
    int appendCopy(SparseRows from, int index) {
        int row = append(from.ids()[index], from.data(), index * stride);
        System.arraycopy(from.data(), index * stride, block(row), offset(row), stride);
        steps.get(row >>> blockShift)[row & rowMask] = from.steps()[index];
        if (touched != null && from.touched() != null) {
            touch(row, from.touched()[index]);
        }
        return row;
    }
}
