package io.jvmps.client.dataset;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.FloatBuffer;

/**
 * Builds float32 feature and one-hot label matrices straight into off-heap memory, without a
 * heap {@code float[]} of the whole set. Stateless.
 */
final class Tensors {
    private static final int CHUNK = 1 << 16;

    private Tensors() {
    }

    /**
     * @param bytes unsigned bytes, row-major, {@code rows * cols} of them
     * @return float32 {@code [rows, cols]}, each byte divided by 255 (so values are in [0, 1])
     */
    static INDArray unitScaled(byte[] bytes, int rows, int cols) {
        long total = (long) rows * cols;
        if (total != bytes.length) {
            throw new IllegalArgumentException("expected " + total + " bytes for [" + rows + ", " + cols
                    + "], got " + bytes.length);
        }
        INDArray out = Nd4j.createUninitialized(DataType.FLOAT, rows, cols);
        FloatBuffer target = out.data().asNioFloat();
        float[] chunk = new float[(int) Math.min(CHUNK, Math.max(1, total))];
        for (int start = 0; start < bytes.length; start += chunk.length) {
            int len = Math.min(chunk.length, bytes.length - start);
            for (int i = 0; i < len; i++) {
                chunk[i] = (bytes[start + i] & 0xFF) / 255f;
            }
            target.put(chunk, 0, len);
        }
        return out;
    }

    /**
     * @param classIds class of each row, each in {@code [0, classes)}
     * @return float32 {@code [classIds.length, classes]} with a single 1 per row
     */
    static INDArray oneHot(int[] classIds, int classes) {
        float[] values = new float[Math.multiplyExact(classIds.length, classes)];
        for (int row = 0; row < classIds.length; row++) {
            int c = classIds[row];
            if (c < 0 || c >= classes) {
                throw new IllegalArgumentException("class id " + c + " at row " + row + " is outside [0, " + classes + ")");
            }
            values[row * classes + c] = 1f;
        }
        return Nd4j.create(values, new long[] {classIds.length, classes}, DataType.FLOAT);
    }
}
