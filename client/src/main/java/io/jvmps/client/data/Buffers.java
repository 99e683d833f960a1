package io.jvmps.client.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Conversions between nd4j arrays, Netty buffers and Spring data buffers without copying. Stateless. */
public final class Buffers {
    private Buffers() {
    }

    /**
     * @param array a float32, C-ordered, non-view array (the caller keeps it alive while the buffer is used)
     * @return its element bytes, little-endian, as an unpooled wrapper (no copy)
     */
    static ByteBuf wrap(INDArray array) {
        return Unpooled.wrappedBuffer(nio(array));
    }

    /**
     * @param array a float32, C-ordered, non-view array
     * @return a little-endian view of its element bytes, position 0, limit = bytes
     */
    static ByteBuffer nio(INDArray array) {
        requireDense(array);
        ByteBuffer bb = array.data().asNio().order(ByteOrder.LITTLE_ENDIAN);
        long bytes = array.length() * 4L;
        return bb.duplicate().order(ByteOrder.LITTLE_ENDIAN).position(0).limit((int) bytes).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
    }

    /** @return the array itself if dense float32 C-order, else a dense copy */
    public static INDArray dense(INDArray array) {
        boolean dense = array.dataType() == DataType.FLOAT && array.ordering() == 'c' && !array.isView()
                && array.offset() == 0 && array.data().length() == array.length();
        return dense ? array : array.castTo(DataType.FLOAT).dup('c');
    }

    private static void requireDense(INDArray array) {
        if (array.dataType() != DataType.FLOAT || array.ordering() != 'c' || array.isView() || array.offset() != 0) {
            throw new IllegalArgumentException("expected a dense float32 C-order array, got " + array.shapeInfoToString());
        }
    }
}
