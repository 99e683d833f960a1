package io.jvmps.server.store;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One slice's own spare gradient buffer: the one given back after an update is the one the next push is
 * received into, so a push costs no allocation or page faults of fresh native memory. At most one spare: a
 * second buffer given back (several workers' pushes of one step) is left to the garbage collector. Thread-safe.
 */
public final class SpareGradientBuffer implements GradientBuffers {
    private INDArray spare; // guarded by this

    @Override
    public INDArray take(int length) {
        synchronized (this) {
            INDArray kept = spare;
            spare = null;
            if (kept != null && kept.length() == length) {
                return kept;
            }
        }
        return Nd4j.createUninitialized(DataType.FLOAT, length);
    }

    @Override
    public synchronized void give(INDArray gradient) {
        if (spare == null) {
            spare = gradient;
        }
    }
}
