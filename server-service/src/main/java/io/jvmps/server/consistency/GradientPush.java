package io.jvmps.server.consistency;

import io.jvmps.server.store.DenseSlice;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.List;

/**
 * One worker's validated gradients for one step. The arrays are owned by the push: a policy may
 * keep or overwrite them.
 *
 * @param sender    worker rank
 * @param step      the step the gradients were computed at (the slice version they were computed from)
 * @param gradients one entry per slice, each slice at most once, arrays of the slice's length
 */
public record GradientPush(int sender, long step, List<SliceGradient> gradients) {

    /**
     * @param slice    the target slice
     * @param gradient 1-D float32 gradient of the slice's length
     */
    public record SliceGradient(DenseSlice slice, INDArray gradient) {
    }
}
