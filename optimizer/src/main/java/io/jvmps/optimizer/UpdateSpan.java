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
 * span, so rows and slices run the same arithmetic. Not thread-safe; spans over disjoint ranges of the same
 * slice may be updated by different threads at once.
 */
public final class UpdateSpan {
    private final FloatBuffer param;
    private final int paramAt;
    private final FloatBuffer gradient;
    private final int gradientAt;
    private final FloatBuffer[] slots;
    private final int[] slotAt;
    private final int length;

    private UpdateSpan(FloatBuffer param, int paramAt, FloatBuffer gradient, int gradientAt, FloatBuffer[] slots,
                       int[] slotAt, int length) {
        this.param = param;
        this.paramAt = paramAt;
        this.gradient = gradient;
        this.gradientAt = gradientAt;
        this.slots = slots;
        this.slotAt = slotAt;
        this.length = length;
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
        FloatBuffer storage = FloatBuffer.wrap(row);
        FloatBuffer[] views = new FloatBuffer[slots];
        int[] at = new int[slots];
        for (int s = 0; s < slots; s++) {
            views[s] = storage;
            at[s] = offset + (s + 1) * dim;
        }
        return new UpdateSpan(storage, offset, FloatBuffer.wrap(gradient), gradientOffset, views, at, dim);
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

    /** @return the parameter's storage; element {@code k} of the span is at {@code paramAt() + k} */
    public FloatBuffer param() {
        return param;
    }

    /** @return index of the span's first parameter element */
    public int paramAt() {
        return paramAt;
    }

    /** @return the gradient's storage (read only by every optimizer) */
    public FloatBuffer gradient() {
        return gradient;
    }

    /** @return index of the span's first gradient element */
    public int gradientAt() {
        return gradientAt;
    }

    /** @return the storage of state slot {@code s} */
    public FloatBuffer slot(int s) {
        return slots[s];
    }

    /** @return index of the span's first element in state slot {@code s} */
    public int slotAt(int s) {
        return slotAt[s];
    }

    /** @return number of elements */
    public int length() {
        return length;
    }
}
