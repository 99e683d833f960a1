package io.jvmps.server.config;

import io.jvmps.server.store.GradientBuffers;
import io.jvmps.server.store.SharedGradientPool;
import io.jvmps.server.store.SpareGradientBuffer;

import java.util.function.Supplier;

/** When a dense push's gradients are applied ({@code ps.server.push-apply}). */
public enum PushApply {
    /**
     * Once the whole push arrived and every slice of it was checked: a push with one bad slice changes nothing.
     * Each slice keeps a spare receive buffer, so a server holds 4 bytes per parameter besides values and
     * optimizer state (16 with Adam).
     */
    WHOLE_PUSH,
    /**
     * Each slice as soon as it arrived and was checked (ps-lite's way): a push rejected at its k-th slice keeps
     * the k-1 slices before it, which the error says; a retried push (same tag) skips the slices already applied.
     * Receive buffers come from one small shared pool, so with one worker (or steps that complete per slice) a
     * server holds about 12 bytes per parameter with Adam. SYNC only.
     */
    PER_SLICE;

    /**
     * @param mode the server's consistency mode
     * @throws IllegalStateException naming both properties when this way of applying does not fit {@code mode}
     */
    public void requireSupports(io.jvmps.common.protocol.ConsistencyMode mode) {
        if (this == PER_SLICE && mode != io.jvmps.common.protocol.ConsistencyMode.SYNC) {
            throw new IllegalStateException("ps.server.push-apply=PER_SLICE works with ps.consistency.mode=SYNC only, "
                    + "not " + mode + " (whose worker clocks advance once per whole push); use WHOLE_PUSH");
        }
    }

    /** @return where the store's slices receive pushes: a spare per slice, or one pool for all */
    public Supplier<GradientBuffers> gradientBuffers() {
        if (this == WHOLE_PUSH) {
            return SpareGradientBuffer::new;
        }
        SharedGradientPool pool = new SharedGradientPool(SharedGradientPool.DEFAULT_MAX_IDLE_BYTES);
        return () -> pool;
    }
}
