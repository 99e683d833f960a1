package io.jvmps.optimizer;

import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.FloatBuffer;

/**
 * In-place sums and divisions of whole dense float32 arrays, in Java on the calling thread, block by block over
 * the arrays' native memory (see {@link Blocks}). A server sums the gradients of a synchronous step with it:
 * nd4j's own {@code addi} / {@code divi} hand every call, however small, to a native thread pool and wait for it,
 * which on cores busy with training costs a wake-up per operation (docs/benchmarks.md). Stateless and
 * thread-safe; calls on the same arrays must not overlap.
 */
public final class DenseSums {
    private DenseSums() {
    }

    /**
     * {@code into += from}, element by element.
     *
     * @param into a whole float32 array (not a view), updated in place
     * @param from a whole float32 array of the same length, only read
     * @throws IllegalArgumentException for views, other types or different lengths (nothing is changed)
     */
    public static void add(INDArray into, INDArray from) {
        FloatBuffer sum = UpdateSpan.floats(into, "sum");
        FloatBuffer addend = UpdateSpan.floats(from, "addend");
        int length = sum.capacity();
        if (addend.capacity() != length) {
            throw new IllegalArgumentException("cannot add " + addend.capacity() + " elements into " + length);
        }
        Blocks blocks = Blocks.local(2);
        float[] s = blocks.array(0);
        float[] a = blocks.array(1);
        for (int done = 0; done < length; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, length - done);
            sum.get(done, s, 0, len);
            addend.get(done, a, 0, len);
            for (int i = 0; i < len; i++) {
                s[i] += a[i];
            }
            sum.put(done, s, 0, len);
        }
    }

    /**
     * {@code array /= divisor}, element by element (a division, as nd4j's {@code divi}: the same float results).
     *
     * @param array a whole float32 array (not a view), updated in place
     * @throws IllegalArgumentException for a view or another type (nothing is changed)
     */
    public static void divide(INDArray array, float divisor) {
        FloatBuffer values = UpdateSpan.floats(array, "array");
        int length = values.capacity();
        float[] v = Blocks.local(1).array(0);
        for (int done = 0; done < length; done += Blocks.SIZE) {
            int len = Math.min(Blocks.SIZE, length - done);
            values.get(done, v, 0, len);
            for (int i = 0; i < len; i++) {
                v[i] /= divisor;
            }
            values.put(done, v, 0, len);
        }
    }
}
