package io.jvmps.optimizer;

/**
 * Per-thread scratch arrays an update loop copies a block of each operand into, so that the arithmetic runs
 * over plain {@code float[]} arrays, which the JIT compiles to SIMD instructions (it does not for buffer
 * accesses). Each thread has its own; a loop must not call another that uses them.
 */
final class Blocks {
    /** Elements per block: four operands of 16 KiB stay in the core's cache. */
    static final int SIZE = 4096;
    private static final ThreadLocal<Blocks> LOCAL = ThreadLocal.withInitial(Blocks::new);

    private float[][] arrays = new float[0][];
    /** Views of arrays 2, 3, ... for the state slots, by slot count (made once per thread and count). */
    private float[][][] slotViews = new float[0][][];

    /** @return this thread's scratch with at least {@code count} arrays of {@link #SIZE} */
    static Blocks local(int count) {
        return LOCAL.get().atLeast(count);
    }

    /** @return these scratch arrays (this thread's), grown to at least {@code count} arrays */
    Blocks atLeast(int count) {
        if (arrays.length < count) {
            float[][] more = new float[count][];
            for (int i = 0; i < count; i++) {
                more[i] = i < arrays.length ? arrays[i] : new float[SIZE];
            }
            arrays = more;
        }
        return this;
    }

    /** @return arrays {@code 2 .. 1 + count}, for {@code count} state slots (needs {@code local(2 + count)}) */
    float[][] slotArrays(int count) {
        if (slotViews.length <= count) {
            slotViews = java.util.Arrays.copyOf(slotViews, count + 1);
        }
        if (slotViews[count] == null) {
            slotViews[count] = java.util.Arrays.copyOfRange(arrays, 2, 2 + count);
        }
        return slotViews[count];
    }

    /** @return scratch array {@code i} */
    float[] array(int i) {
        return arrays[i];
    }
}
