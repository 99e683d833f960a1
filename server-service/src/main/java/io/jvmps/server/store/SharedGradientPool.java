package io.jvmps.server.store;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Gradient buffers shared by every slice, for per-slice application: a push's slices are received and applied
 * one after another, so a few buffers of each slice length serve the whole model. Idle buffers are kept up to
 * {@code maxIdleBytes} in all; a buffer given back beyond that is freed at once (not left to the garbage
 * collector), so the pool never holds more native memory than that bound. Thread-safe.
 */
public final class SharedGradientPool implements GradientBuffers {
    /** 16 slices of the default 4 MiB: a push per event loop in flight with room to spare. */
    public static final long DEFAULT_MAX_IDLE_BYTES = 64L << 20;

    private final long maxIdleBytes;
    private final Map<Integer, ArrayDeque<INDArray>> idle = new HashMap<>(); // by length, guarded by this
    private long idleBytes; // guarded by this

    /** @param maxIdleBytes bytes of idle buffers kept for reuse, >= 0 */
    public SharedGradientPool(long maxIdleBytes) {
        if (maxIdleBytes < 0) {
            throw new IllegalArgumentException("maxIdleBytes must be >= 0, got " + maxIdleBytes);
        }
        this.maxIdleBytes = maxIdleBytes;
    }

    @Override
    public INDArray take(int length) {
        synchronized (this) {
            ArrayDeque<INDArray> kept = idle.get(length);
            if (kept != null && !kept.isEmpty()) {
                idleBytes -= 4L * length;
                return kept.pop();
            }
        }
        return Nd4j.createUninitialized(DataType.FLOAT, length);
    }

    @Override
    public void give(INDArray gradient) {
        long bytes = 4L * gradient.length();
        synchronized (this) {
            if (idleBytes + bytes <= maxIdleBytes) {
                idle.computeIfAbsent((int) gradient.length(), l -> new ArrayDeque<>()).push(gradient);
                idleBytes += bytes;
                return;
            }
        }
        gradient.close();
    }

    /** @return bytes of idle buffers held now */
    public synchronized long idleBytes() {
        return idleBytes;
    }
}
