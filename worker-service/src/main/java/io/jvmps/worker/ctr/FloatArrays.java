package io.jvmps.worker.ctr;

import io.jvmps.client.data.Buffers;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.ByteOrder;

/**
 * Bulk copies between Java {@code float[]} and nd4j arrays. {@code Nd4j.create(float[], ...)} and
 * {@code DataBuffer.asFloat()} copy one element at a time through an indexer (in a profile of the CTR job
 * they cost more than the model's own Java work); a {@code FloatBuffer} view of the native memory copies
 * in bulk.
 */
final class FloatArrays {
    private FloatArrays() {
    }

    /** @return a new float32 C-order array of {@code shape} holding {@code values} (row-major) */
    static INDArray toNd4j(float[] values, long... shape) {
        INDArray array = Nd4j.create(DataType.FLOAT, shape, 'c');
        if (array.length() != values.length) {
            throw new IllegalArgumentException(values.length + " values for shape " + java.util.Arrays.toString(shape));
        }
        array.data().asNio().order(ByteOrder.nativeOrder()).asFloatBuffer().put(values);
        return array;
    }

    /** @return the array's elements in C order, as float32 */
    static float[] toFloats(INDArray array) {
        INDArray dense = Buffers.dense(array);
        float[] out = new float[(int) dense.length()];
        dense.data().asNio().order(ByteOrder.nativeOrder()).asFloatBuffer().get(out);
        return out;
    }
}
