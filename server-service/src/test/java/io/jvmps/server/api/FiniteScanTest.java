package io.jvmps.server.api;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FiniteScanTest {
    private static final float[] FINITE_EDGES = {0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL,
            Float.MAX_VALUE, -Float.MAX_VALUE, 1f, -1e-30f, 3.4e38f};
    private static final float[] NOT_FINITE = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.intBitsToFloat(0x7fc00001), Float.intBitsToFloat(0xffffffff), Float.intBitsToFloat(0x7f800001)};

    @Test
    void finiteValuesOfEveryKindPass() {
        ByteBuf data = floats(10_000, 3);
        for (int i = 0; i < 10_000; i++) {
            data.setFloatLE(3 + 4 * i, FINITE_EDGES[i % FINITE_EDGES.length]);
        }
        assertThat(FiniteScan.firstNonFinite(data)).isEqualTo(-1);
        data.release();
    }

    @Test
    void theFirstNonFiniteElementIsFoundInEveryBlockPosition() {
        int length = 3 * 4096 + 17; // a partial last block
        for (int at : new int[] {0, 1, 4095, 4096, 8191, 8192, length - 1}) {
            for (float bad : NOT_FINITE) {
                ByteBuf data = floats(length, 5);
                data.setFloatLE(5 + 4 * at, bad);
                if (at + 3 < length) {
                    data.setFloatLE(5 + 4 * (at + 3), Float.NaN); // a later one does not hide the first
                }
                assertThat(FiniteScan.firstNonFinite(data)).as("bits %08x at %d", Float.floatToRawIntBits(bad), at)
                        .isEqualTo(at);
                assertThat(data.readerIndex()).isEqualTo(5);
                data.release();
            }
        }
    }

    @Test
    void anEmptyBufferIsFinite() {
        assertThat(FiniteScan.firstNonFinite(Unpooled.EMPTY_BUFFER)).isEqualTo(-1);
    }

    /** @return {@code count} floats of 0.5 after {@code skip} bytes that are read past (reader index = skip) */
    private static ByteBuf floats(int count, int skip) {
        ByteBuf data = Unpooled.directBuffer(skip + 4 * count);
        for (int i = 0; i < skip; i++) {
            data.writeByte(0xff); // NaN-looking bytes before the reader index must not count
        }
        for (int i = 0; i < count; i++) {
            data.writeFloatLE(0.5f);
        }
        data.readerIndex(skip);
        return data;
    }
}
