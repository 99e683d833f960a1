package io.jvmps.optimizer;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Per-slice optimizer state: zero or more float32 slots of the slice's length (e.g. Adam's first
 * and second moments). Not thread-safe: guarded by the owning slice's lock.
 */
public final class OptimizerState {
    /** State of an optimizer that keeps none (plain SGD). */
    public static final OptimizerState NONE = new OptimizerState(new INDArray[0]);

    private final INDArray[] slots;

    private OptimizerState(INDArray[] slots) {
        this.slots = slots;
    }

    /**
     * @param count  number of slots
     * @param length elements per slot
     * @return state with {@code count} zero-filled slots
     */
    public static OptimizerState zeros(int count, int length) {
        return filled(count, length, 0.0);
    }

    /**
     * @param count  number of slots
     * @param length elements per slot
     * @param value  initial value of every element
     * @return state with {@code count} slots filled with {@code value}
     */
    public static OptimizerState filled(int count, int length, double value) {
        INDArray[] slots = new INDArray[count];
        for (int i = 0; i < count; i++) {
            slots[i] = Nd4j.valueArrayOf(new long[] {length}, value, DataType.FLOAT);
        }
        return new OptimizerState(slots);
    }

    /**
     * @param slots the slots (taken, not copied), e.g. restored from a checkpoint
     * @return state holding them
     */
    public static OptimizerState of(INDArray... slots) {
        return slots.length == 0 ? NONE : new OptimizerState(slots.clone());
    }

    /** @return slot {@code i} */
    public INDArray slot(int i) {
        return slots[i];
    }

    /** @return number of slots */
    public int slots() {
        return slots.length;
    }

    /** @return bytes held by the slots */
    public long bytes() {
        long b = 0;
        for (INDArray s : slots) {
            b += s.length() * 4L;
        }
        return b;
    }
}
