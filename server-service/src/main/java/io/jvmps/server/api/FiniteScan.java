package io.jvmps.server.api;

import io.netty.buffer.ByteBuf;

import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * Finds NaN and infinities in received float32 data (little-endian, as on the wire) without converting a
 * float at a time: the bits are copied in blocks of 4,096 into a per-thread {@code int[]} and OR-reduced with a
 * branch-free test the JIT turns into SIMD code; only a block holding a bad element is searched element by
 * element. A float is not finite exactly when its exponent bits are all ones, and then
 * {@code (bits & 0x7f800000) + 0x00800000} is {@code 0x80000000}, the only way that sum gets its sign bit.
 * Thread-safe (one block per thread).
 */
final class FiniteScan {
    private static final int EXPONENT = 0x7f800000;
    private static final int BLOCK = 4096;
    private static final ThreadLocal<int[]> BLOCKS = ThreadLocal.withInitial(() -> new int[BLOCK]);

    private FiniteScan() {
    }

    /**
     * @param data float32 elements, little-endian, from its reader index (not moved)
     * @return the index (from the reader index, in elements) of the first NaN or infinity, or -1 when all are finite
     */
    static int firstNonFinite(ByteBuf data) {
        IntBuffer ints = data.nioBuffer(data.readerIndex(), data.readableBytes() & ~3)
                .order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        int[] block = BLOCKS.get();
        int n = ints.remaining();
        for (int start = 0; start < n; start += BLOCK) {
            int length = Math.min(BLOCK, n - start);
            ints.get(start, block, 0, length);
            int signs = 0;
            for (int i = 0; i < length; i++) {
                signs |= (block[i] & EXPONENT) + 0x00800000;
            }
            if (signs < 0) {
                for (int i = 0; i < length; i++) {
                    if ((block[i] & EXPONENT) == EXPONENT) {
                        return start + i;
                    }
                }
            }
        }
        return -1;
    }
}
