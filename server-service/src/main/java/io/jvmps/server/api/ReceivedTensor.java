package io.jvmps.server.api;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One whole tensor received over a channel, validated and copied once into its own array.
 *
 * @param key    slice key
 * @param step   step from its frames
 * @param sender sender rank from its frames
 * @param tag    the push's tag from its frames (worker incarnation and sequence number; 0 when unused)
 * @param values 1-D float32 array
 */
public record ReceivedTensor(long key, long step, int sender, long tag, INDArray values) {
}
