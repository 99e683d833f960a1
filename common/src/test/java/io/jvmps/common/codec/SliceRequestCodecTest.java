package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceRequestCodecTest {
    private final LeakTrackingAllocator alloc = LeakTrackingAllocator.pooledDirect();

    @AfterEach
    void everyBufferReleased() {
        alloc.assertAllReleased();
    }

    static Stream<SliceRequest> requests() {
        long[] many = LongStream.range(0, 1000).map(i -> i * 0x1_0000_0001L - 500).toArray();
        many[0] = Long.MIN_VALUE;
        many[999] = Long.MAX_VALUE;
        return Stream.of(
                new SliceRequest(0, 0, new long[0]),
                new SliceRequest(7, 3, new long[] {0x2_0000_0005L}),
                new SliceRequest(Long.MAX_VALUE, Integer.MAX_VALUE, many),
                new SliceRequest(-1, -1, new long[] {-1, 0, -1}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void roundTrips(SliceRequest request) {
        ByteBuf frame = SliceRequestCodec.encode(alloc, request);
        assertThat(frame.readableBytes()).isEqualTo(24 + 8 * request.keys().length);

        SliceRequest decoded = SliceRequestCodec.decode(frame);

        assertThat(decoded).isEqualTo(request);
        assertThat(decoded.minVersion()).isEqualTo(request.minVersion());
        assertThat(decoded.sender()).isEqualTo(request.sender());
        assertThat(decoded.keys()).containsExactly(request.keys());
        assertThat(frame.readerIndex()).as("decode does not consume").isZero();
        assertThat(frame.refCnt()).as("decode does not release").isEqualTo(1);
        frame.release();
    }

    @Test
    void wireLayoutIsExactlyAsDocumented() {
        ByteBuf frame = SliceRequestCodec.encode(alloc, new SliceRequest(5, 2, new long[] {0x0102030405060708L}));

        assertThat(ByteBufUtil.hexDump(frame)).isEqualTo(
                "50535251" + "01" + "000000"     // "PSRQ", version 1, reserved
                        + "0500000000000000"     // minVersion
                        + "02000000"             // sender
                        + "01000000"             // key count
                        + "0807060504030201");   // key
        frame.release();
    }

    @Test
    void decodeHonoursTheReaderIndex() {
        SliceRequest request = new SliceRequest(3, 1, new long[] {10, 20});
        ByteBuf encoded = SliceRequestCodec.encode(alloc, request);
        ByteBuf prefixed = alloc.buffer().writeZero(3).writeBytes(encoded);
        prefixed.readerIndex(3);

        assertThat(SliceRequestCodec.decode(prefixed)).isEqualTo(request);
        encoded.release();
        prefixed.release();
    }

    static Stream<Arguments> malformations() {
        return Stream.of(
                Arguments.of("bad magic", (Consumer<ByteBuf>) f -> f.setIntLE(0, 0x43545350),
                        "not a slice request frame"),
                Arguments.of("bad version", (Consumer<ByteBuf>) f -> f.setByte(4, 9),
                        "unsupported slice request version 9"),
                Arguments.of("too short", (Consumer<ByteBuf>) f -> f.writerIndex(23),
                        "not a slice request frame (23 bytes)"),
                Arguments.of("count above keys", (Consumer<ByteBuf>) f -> f.setIntLE(20, 3),
                        "announces 3 keys but carries 16 key bytes"),
                Arguments.of("count below keys", (Consumer<ByteBuf>) f -> f.setIntLE(20, 1),
                        "announces 1 keys but carries 16 key bytes"),
                Arguments.of("stray trailing byte", (Consumer<ByteBuf>) f -> f.writeByte(0),
                        "announces 2 keys but carries 17 key bytes"),
                Arguments.of("negative count", (Consumer<ByteBuf>) f -> f.setIntLE(20, -2),
                        "announces -2 keys"),
                Arguments.of("count above MAX_KEYS", (Consumer<ByteBuf>) f -> f.setIntLE(20, SliceRequestCodec.MAX_KEYS + 1),
                        "announces " + (SliceRequestCodec.MAX_KEYS + 1) + " keys"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformations")
    void malformedFrameIsRejected(String name, Consumer<ByteBuf> damage, String messagePart) {
        ByteBuf frame = SliceRequestCodec.encode(alloc, new SliceRequest(1, 0, new long[] {1, 2}));
        damage.accept(frame);

        assertThatThrownBy(() -> SliceRequestCodec.decode(frame))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME))
                .hasMessageContaining(messagePart);
        assertThat(frame.refCnt()).isEqualTo(1);
        frame.release();
    }

    @Test
    void aTensorFrameIsNotASliceRequest() {
        TensorChunk chunk = TestChunks.whole(alloc, DType.FLOAT32, 1, 4);
        ByteBuf frame = TensorChunkCodec.encode(alloc, chunk);

        assertThatThrownBy(() -> SliceRequestCodec.decode(frame))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME));
        chunk.release();
        frame.release();
    }

    @Test
    void equalityComparesKeyContents() {
        SliceRequest a = new SliceRequest(1, 2, new long[] {3, 4});
        assertThat(a).isEqualTo(new SliceRequest(1, 2, new long[] {3, 4}))
                .hasSameHashCodeAs(new SliceRequest(1, 2, new long[] {3, 4}))
                .isNotEqualTo(new SliceRequest(1, 2, new long[] {4, 3}))
                .isNotEqualTo(new SliceRequest(2, 2, new long[] {3, 4}))
                .isNotEqualTo(new SliceRequest(1, 3, new long[] {3, 4}));
        assertThat(a.toString()).contains("keys=2");
    }
}
