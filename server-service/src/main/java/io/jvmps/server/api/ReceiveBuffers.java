package io.jvmps.server.api;

import io.jvmps.common.codec.TensorChunk;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Where a receiver puts a tensor: a float32 array of the validated length, owned by the receiver. */
@FunctionalInterface
interface ReceiveBuffers {
    /** A new native array per tensor (inits: the array becomes the slice). */
    ReceiveBuffers FRESH = (first, length) -> Nd4j.createUninitialized(DataType.FLOAT, length);

    /**
     * @param first  the tensor's first chunk, already validated
     * @param length its element count
     * @return an array of {@code length} floats; every element will be overwritten
     */
    INDArray take(TensorChunk first, int length);
}
