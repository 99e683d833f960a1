package io.jvmps.server.store;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Where a slice's push is received into and where the buffer goes once its update was applied. Chosen by
 * {@code ps.server.push-apply}: a spare kept per slice ({@link SpareGradientBuffer}, whole-push application,
 * 4 bytes per parameter besides the values and optimizer state) or one bounded pool shared by every slice
 * ({@link SharedGradientPool}, per-slice application: the push's buffers cycle through a few). Implementations
 * are thread-safe.
 */
public interface GradientBuffers {
    /**
     * @param length float32 elements
     * @return an array of {@code length} floats whose contents are stale (the receiver overwrites every element),
     *         owned by the caller
     */
    INDArray take(int length);

    /**
     * Takes back a buffer nothing references any more: kept for a later {@link #take(int)} or freed at once.
     *
     * @param gradient a float32 array that was taken from here, open
     */
    void give(INDArray gradient);
}
