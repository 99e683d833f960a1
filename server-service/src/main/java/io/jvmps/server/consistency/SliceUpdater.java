package io.jvmps.server.consistency;

import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.DenseSlice;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.concurrent.atomic.LongAdder;

/** Applies one gradient to one slice with the optimizer and advances its version. Thread-safe. */
final class SliceUpdater {
    private final Optimizer optimizer;
    private final LongAdder applied = new LongAdder();

    private final SliceUpdateListener listener;

    SliceUpdater(Optimizer optimizer, SliceUpdateListener listener) {
        this.optimizer = optimizer;
        this.listener = listener;
    }

    /**
     * The caller holds the slice's lock; waiters wake when it releases it. The gradient goes back to the slice
     * for the next push to be received into, so the caller must not keep it.
     */
    void apply(DenseSlice slice, INDArray gradient) {
        optimizer.apply(slice.values(), gradient, slice.optimizerState(optimizer::newState), slice.version() + 1);
        slice.recycle(gradient);
        slice.advanceVersion();
        applied.increment();
        listener.updated(slice);
    }

    long applied() {
        return applied.sum();
    }
}
