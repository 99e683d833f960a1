package io.jvmps.server.sparse;

import java.util.ArrayList;
import java.util.List;

/**
 * Row storage of one table: fixed-size blocks of flat float arrays, each row {@code stride} floats
 * ({@code [values | optimizer state slots]}), with the row's id and update count in parallel primitive
 * arrays. No object per row. Rows are appended and never moved. Not thread-safe: the table's lock guards it.
 */
final class RowBlocks {
    private static final int TARGET_BLOCK_FLOATS = 1 << 20;
    /** Index bytes charged per row for the id-to-row map (16 bytes per entry at a 0.65 load factor, rounded up). */
    static final int INDEX_BYTES_PER_ROW = 32;

    private final int stride;
    private final int rowsPerBlock;
    private final float initialState;
    private final int dim;
    private final List<float[]> values = new ArrayList<>();
    private final List<long[]> ids = new ArrayList<>();
    private final List<int[]> steps = new ArrayList<>();
    private int rows;

    RowBlocks(int dim, int stateSlots, float initialState) {
        this.dim = dim;
        this.stride = dim * (1 + stateSlots);
        this.rowsPerBlock = Math.max(1, TARGET_BLOCK_FLOATS / stride);
        this.initialState = initialState;
    }

    /** @return bytes one more block costs, index included */
    long blockBytes() {
        return (long) rowsPerBlock * ((long) stride * 4 + 8 + 4 + INDEX_BYTES_PER_ROW);
    }

    /** @return how many new blocks appending {@code newRows} rows needs */
    int blocksFor(int newRows) {
        long capacity = (long) values.size() * rowsPerBlock;
        long needed = rows + (long) newRows - capacity;
        return needed <= 0 ? 0 : (int) ((needed + rowsPerBlock - 1) / rowsPerBlock);
    }

    /** Appends a row whose values are already in {@code initial[offset .. offset + dim)}; returns its index. */
    int append(long id, float[] initial, int offset) {
        if (rows == values.size() * rowsPerBlock) {
            values.add(new float[rowsPerBlock * stride]);
            ids.add(new long[rowsPerBlock]);
            steps.add(new int[rowsPerBlock]);
        }
        int row = rows++;
        float[] block = block(row);
        int at = offset(row);
        System.arraycopy(initial, offset, block, at, dim);
        if (initialState != 0f) {
            java.util.Arrays.fill(block, at + dim, at + stride, initialState);
        }
        ids.get(row / rowsPerBlock)[row % rowsPerBlock] = id;
        return row;
    }

    float[] block(int row) {
        return values.get(row / rowsPerBlock);
    }

    int offset(int row) {
        return (row % rowsPerBlock) * stride;
    }

    /** @return the row's update count after adding one */
    int nextStep(int row) {
        int[] block = steps.get(row / rowsPerBlock);
        return ++block[row % rowsPerBlock];
    }

    long id(int row) {
        return ids.get(row / rowsPerBlock)[row % rowsPerBlock];
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
            stepCopy[row] = steps.get(row / rowsPerBlock)[row % rowsPerBlock];
            System.arraycopy(block(row), offset(row), data, row * stride, stride);
        }
        return new SparseRows(spec, stride / dim - 1, updates, idCopy, stepCopy, data);
    }

    /** Drops every row and block. */
    void clear() {
        values.clear();
        ids.clear();
        steps.clear();
        rows = 0;
    }

    /** Appends row {@code index} of a snapshot as it is: values, optimizer state and update count. */
    int appendCopy(SparseRows from, int index) {
        int row = append(from.ids()[index], from.data(), index * stride);
        System.arraycopy(from.data(), index * stride, block(row), offset(row), stride);
        steps.get(row / rowsPerBlock)[row % rowsPerBlock] = from.steps()[index];
        return row;
    }

    int blocks() {
        return values.size();
    }
}
