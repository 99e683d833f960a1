package io.jvmps.server.consistency;

import io.jvmps.common.protocol.PsException;

/**
 * A policy that can take a push one slice at a time ({@code ps.server.push-apply=PER_SLICE}): SYNC, whose steps
 * complete per slice. The clocked modes advance a worker's clock once per whole push, so they take whole pushes
 * only, and a server configured otherwise refuses to start. Implementations are thread-safe.
 */
public interface SliceWisePolicy extends ConsistencyPolicy {

    /**
     * Accepts one slice of a push as soon as it arrived: the slices of one push are accepted one call each, and a
     * call that fails leaves the earlier ones taken.
     *
     * @param part        one worker's gradient for one slice at one step
     * @param firstOfPush true for the push's first slice (the push is counted once)
     * @throws PsException as {@link #accept(GradientPush)}; nothing of {@code part} changed then
     */
    void acceptSlice(GradientPush part, boolean firstOfPush);
}
