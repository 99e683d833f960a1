package io.jvmps.server.consistency;

import io.jvmps.server.store.DenseSlice;

/** Told of every optimizer update a policy applies to a slice (e.g. to checkpoint it at a version). */
@FunctionalInterface
public interface SliceUpdateListener {
    /** Listens to nothing. */
    SliceUpdateListener NONE = slice -> { };

    /**
     * Called with the slice's lock held, right after its version advanced; must be quick and must not
     * take other slices' locks.
     *
     * @param slice the updated slice
     */
    void updated(DenseSlice slice);
}
