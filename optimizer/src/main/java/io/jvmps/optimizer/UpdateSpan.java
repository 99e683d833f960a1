package io.jvmps.optimizer;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * The elements one optimizer update reads and writes: {@code length} consecutive floats of the parameter,
 * of the gradient and of each state slot, each starting at its own index of its own buffer. A dense slice
 * is a span over separate native buffers ({@link #dense}); a sparse-table row is a span over one heap array
 * holding {@code [values | slot 0 | slot 1 ...]} ({@link #row}). Every optimizer has one update loop over a
 * span, so rows and slices run the same arithmetic. A row span copies with {@code System.arraycopy} and
 * {@link #localRow} reuses one per thread, so a sparse push allocates nothing per row. Not thread-safe; spans over
 * disjoint ranges of the same slice may be updated by different threads at once.
 */
public final class UpdateSpan {
    /** Each thread's row span, re-aimed at every row it updates, so a sparse push allocates nothing per row. */
    private static final ThreadLocal<UpdateSpan> ROW = ThreadLocal.withInitial(() -> new UpdateSpan(Blocks.local(0)));

    // a dense span: buffers over native memory
    private FloatBuffer param;
    private int paramAt;
    private FloatBuffer gradient;
    private int gradientAt;
    private FloatBuffer[] slots;
    private int[] slotAt;
    private int length;
    // a row span: heap arrays, copied with System.arraycopy (null for a dense span)
    private float[] rowArray;
    private float[] gradientArray;
    private int slotCount;
    /** The owning thread's scratch, for a per-thread row span (one thread-local lookup per row, not two). */
    private final Blocks ownBlocks;

    private UpdateSpan(FloatBuffer param, int paramAt, FloatBuffer gradient, int gradientAt, FloatBuffer[] slots,
                       int[] slotAt, int length) {
        this.param = param;
        this.paramAt = paramAt;
        this.gradient = gradient;
        this.gradientAt = gradientAt;
        this.slots = slots;
        this.slotAt = slotAt;
        this.length = length;
        this.slotCount = slots.length;
        this.ownBlocks = null;
    }

    private UpdateSpan(Blocks ownBlocks) {
        this.slotAt = new int[0];
        this.ownBlocks = ownBlocks;
    }

    /**
     * @param param    a whole float32 array (its own buffer, in order: not a part of another), updated in place
     * @param gradient a whole float32 array of the same length
     * @param state    the slice's state
     * @param from     first element of the span
     * @param to       one past the last element
     * @return the span {@code [from, to)} of the slice
     * @throws IllegalArgumentException for views, other types or a range outside the arrays
     */
    public static UpdateSpan dense(INDArray param, INDArray gradient, OptimizerState state, int from, int to) {
        FloatBuffer p = floats(param, "parameter");
        FloatBuffer g = floats(gradient, "gradient");
        if (g.capacity() != p.capacity() || from < 0 || to > p.capacity() || from > to) {
            throw new IllegalArgumentException("span [" + from + ", " + to + ") of a parameter of " + p.capacity()
                    + " elements with a gradient of " + g.capacity());
        }
        FloatBuffer[] slots = new FloatBuffer[state.slots()];
        int[] at = new int[slots.length];
        for (int s = 0; s < slots.length; s++) {
            slots[s] = floats(state.slot(s), "state slot " + s);
            at[s] = from;
        }
        return new UpdateSpan(p, from, g, from, slots, at, to - from);
    }

    /**
     * @param row            flat storage {@code [values (dim) | slot 0 (dim) | ...]} from {@code offset}
     * @param offset         index of the row's first value
     * @param dim            values per row
     * @param slots          state slots kept after the values
     * @param gradient       the row's gradient
     * @param gradientOffset index of its first element
     * @return the span over that row
     */
    public static UpdateSpan row(float[] row, int offset, int dim, int slots, float[] gradient, int gradientOffset) {
        return new UpdateSpan((Blocks) null).aim(row, offset, dim, slots, gradient, gradientOffset);
    }

    /**
     * {@link #row} without allocating: the calling thread's span, valid until this thread's next call. For a
     * caller that hands the span to one {@link Optimizer#update} and keeps no reference to it.
     */
    static UpdateSpan localRow(float[] row, int offset, int dim, int slots, float[] gradient, int gradientOffset) {
        return ROW.get().aim(row, offset, dim, slots, gradient, gradientOffset);
    }

    private UpdateSpan aim(float[] row, int offset, int dim, int slots, float[] gradient, int gradientOffset) {
        if (offset < 0 || (long) offset + (long) dim * (1 + slots) > row.length || gradientOffset < 0
                || (long) gradientOffset + dim > gradient.length) {
            throw new IllegalArgumentException("row of " + dim + " values and " + slots + " state slots at " + offset
                    + " of " + row.length + " floats, gradient at " + gradientOffset + " of " + gradient.length);
        }
        this.rowArray = row;
        this.paramAt = offset;
        this.gradientArray = gradient;
        this.gradientAt = gradientOffset;
        this.length = dim;
        this.slotCount = slots;
        if (slotAt.length < slots) {
            slotAt = new int[slots];
        }
        for (int s = 0; s < slots; s++) {
            slotAt[s] = offset + (s + 1) * dim;
        }
        return this;
    }

    /** @return a float view of a whole dense float32 array's native memory (absolute indices = elements) */
    static FloatBuffer floats(INDArray array, String what) {
        // a reshape of a whole array is flagged a view but covers its buffer in order: accepted
        if (array.dataType() != DataType.FLOAT || array.offset() != 0 || array.length() != array.data().length()
                || (array.length() > 1 && array.elementWiseStride() != 1)) {
            throw new IllegalArgumentException(what + " must be a whole float32 array, got " + array.dataType()
                    + (array.isView() ? " view" : "") + " of " + array.length() + " elements over a buffer of "
                    + array.data().length());
        }
        return array.data().asNio().order(ByteOrder.nativeOrder()).asFloatBuffer();
    }

    /**
     * Runs {@code update} over the span block by block: copies up to {@link Blocks#SIZE} elements of the
     * parameter, the gradient and each state slot into this thread's scratch arrays, calls it, and copies
     * the parameter and the slots back. The arithmetic thus runs over plain {@code float[]} arrays, which
     * the JIT compiles to SIMD instructions (it does not for buffer accesses).
     */
    void forEachBlock(BlockUpdate update) {
        Blocks blocks = ownBlocks != null ? ownBlocks.atLeast(2 + slotCount) : Blocks.local(2 + slotCount);
        float[] p = blocks.array(0);
        float[] g = blocks.array(1);
        float[][] s = blocks.slotArrays(slotCount);
        for (int done = 0; done < length; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, length - done);
            if (rowArray != null) {
                System.arraycopy(rowArray, paramAt + done, p, 0, len);
                System.arraycopy(gradientArray, gradientAt + done, g, 0, len);
                for (int k = 0; k < slotCount; k++) {
                    System.arraycopy(rowArray, slotAt[k] + done, s[k], 0, len);
                }
                update.apply(p, g, s, len);
                System.arraycopy(p, 0, rowArray, paramAt + done, len);
                for (int k = 0; k < slotCount; k++) {
                    System.arraycopy(s[k], 0, rowArray, slotAt[k] + done, len);
                }
                continue;
            }
            param.get(paramAt + done, p, 0, len);
            gradient.get(gradientAt + done, g, 0, len);
            for (int k = 0; k < slotCount; k++) {
                slots[k].get(slotAt[k] + done, s[k], 0, len);
            }
            update.apply(p, g, s, len);
            param.put(paramAt + done, p, 0, len);
            for (int k = 0; k < slotCount; k++) {
                slots[k].put(slotAt[k] + done, s[k], 0, len);
            }
        }
    }

    /** The arithmetic of one optimizer over one block of a span, on plain arrays. */
    @FunctionalInterface
    interface BlockUpdate {
        /**
         * @param param    the block's parameter values, updated in place
         * @param gradient the block's gradient, read only
         * @param slots    the block's state slots in slot order, updated in place
         * @param length   elements in this block (the arrays may be longer)
         */
        void apply(float[] param, float[] gradient, float[][] slots, int length);
    }

    /** @return number of elements */
    public int length() {
        return length;
    }
}
