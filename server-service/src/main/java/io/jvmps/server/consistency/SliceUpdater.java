package io.jvmps.server.consistency;

import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.DenseSlice;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.concurrent.atomic.LongAdder;

/**
 * The one place an update reaches a slice: applies one pushed array to one slice, advances its version and
 * tells the listener (the checkpointer), in every consistency mode. SYNC, ASYNC and SSP push gradients that
 * the servers' optimizer applies ({@link #optimizing}); GEO pushes deltas that are added as they are
 * ({@link #adding}). Thread-safe.
 */
final class SliceUpdater {
    /** How a pushed array changes a slice's values; called with the slice's lock held. */
    @FunctionalInterface
    private interface Rule {
        void apply(DenseSlice slice, INDArray pushed);
    }

    private final Rule rule;
    private final SliceUpdateListener listener;
    private final LongAdder applied = new LongAdder();

    private SliceUpdater(Rule rule, SliceUpdateListener listener) {
        this.rule = rule;
        this.listener = listener;
    }

    /** @return an updater that applies gradients with {@code optimizer} (its state kept per slice) */
    static SliceUpdater optimizing(Optimizer optimizer, SliceUpdateListener listener) {
        return new SliceUpdater((slice, gradient) -> optimizer.apply(slice.values(), gradient,
                slice.optimizerState(optimizer::newState), slice.version() + 1), listener);
    }

    /** @return an updater that adds the pushed deltas to the values (GEO: no optimizer) */
    static SliceUpdater adding(SliceUpdateListener listener) {
        return new SliceUpdater((slice, delta) -> slice.values().addi(delta), listener);
    }

    /**
     * The caller holds the slice's lock; waiters wake when it releases it. The pushed array goes back to the
     * slice for the next push to be received into, so the caller must not keep it.
     */
    void apply(DenseSlice slice, INDArray pushed) {
        rule.apply(slice, pushed);
        slice.recycle(pushed);
        slice.advanceVersion();
        applied.increment();
        listener.updated(slice);
    }

    long applied() {
        return applied.sum();
    }
}
