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

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.jvmps.common.codec.TestChunks.bytes;
import static io.jvmps.common.codec.TestChunks.chunk;
import static io.jvmps.common.codec.TestChunks.contiguousFrame;
import static io.jvmps.common.codec.TestChunks.whole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class TensorChunkCodecTest {
    private final LeakTrackingAllocator alloc = LeakTrackingAllocator.pooledDirect();

    @AfterEach
    void everyBufferReleased() {
        alloc.assertAllReleased();
    }

    static Stream<Arguments> dtypesAndShapes() {
        List<long[]> shapes = List.of(new long[0], new long[] {5}, new long[] {3, 4}, new long[] {2, 1, 3, 2},
                new long[] {1, 2, 1, 2, 1, 2, 1, 2});
        return Arrays.stream(DType.values())
                .flatMap(t -> shapes.stream().map(s -> Arguments.of(t, s)));
    }

    @ParameterizedTest(name = "{0} shape {1}")
    @MethodSource("dtypesAndShapes")
    void wholeTensorRoundTripsForEveryDtypeAndRank(DType dtype, long[] shape) {
        TensorChunk in = whole(alloc, dtype, 42, shape);
        assertRoundTrip(in);
        in.release();
    }

    @ParameterizedTest(name = "{0} shape {1}")
    @MethodSource("dtypesAndShapes")
    void partialChunkRoundTripsForEveryDtypeAndRank(DType dtype, long[] shape) {
        long total = TensorChunk.elementCount(shape);
        long offset = total / 2;
        int count = (int) (total - offset);
        TensorChunk in = chunk(alloc, dtype, 43, 12, 3, 99, shape, offset, count);
        assertRoundTrip(in);
        in.release();
    }

    static Stream<Arguments> extremeHeaderValues() {
        return Stream.of(
                Arguments.of(Long.MAX_VALUE, -1L, Integer.MAX_VALUE, Long.MIN_VALUE),
                Arguments.of(Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE),
                Arguments.of(-1L, -1L, 0, -1L),
                Arguments.of(0L, 0L, -1, 0L),
                Arguments.of(0x0123_4567_89ab_cdefL, 1L << 40, 65_535, 0xfedc_ba98_7654_3210L));
    }

    @ParameterizedTest(name = "key={0} step={1} sender={2} tag={3}")
    @MethodSource("extremeHeaderValues")
    void largeKeysTagsAndNegativeStepRoundTrip(long key, long step, int sender, long tag) {
        TensorChunk in = chunk(alloc, DType.FLOAT32, key, step, sender, tag, new long[] {4, 4}, 4, 8);
        assertRoundTrip(in);
        in.release();
    }

    @Test
    void emptyTensorRoundTripsWithNoDataBytes() {
        for (long[] shape : List.of(new long[] {0}, new long[] {3, 0, 2})) {
            TensorChunk in = chunk(alloc, DType.FLOAT64, 5, -1, 0, 0, shape, 0, 0);
            ByteBuf frame = TensorChunkCodec.encode(alloc, in);
            assertThat(frame.readableBytes()).isEqualTo(TensorChunkCodec.FIXED_HEADER_BYTES + 8 * shape.length);
            TensorChunk out = TensorChunkCodec.decode(frame);
            assertThat(out.count()).isZero();
            assertThat(out.totalElements()).isZero();
            assertThat(out.isLast()).isTrue();
            assertThat(out.shape()).containsExactly(shape);
            assertThat(out.data().readableBytes()).isZero();
            release(in, frame, out);
        }
    }

    @Test
    void wireLayoutIsExactlyAsDocumented() {
        ByteBuf data = alloc.buffer(8).writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        TensorChunk in = new TensorChunk(DType.FLOAT32, 0x0102030405060708L, 9, 10, 11, new long[] {3}, 1, 2, data);
        ByteBuf frame = TensorChunkCodec.encode(alloc, in);

        assertThat(ByteBufUtil.hexDump(frame)).isEqualTo(
                "50535443" + "01" + "01" + "0100"   // "PSTC", version 1, FLOAT32, rank 1
                        + "0807060504030201"        // key
                        + "0900000000000000"        // step
                        + "0a000000"                // sender
                        + "02000000"                // count
                        + "0100000000000000"        // offset
                        + "0b00000000000000"        // tag
                        + "0300000000000000"        // shape[0]
                        + "0102030405060708");      // data
        release(in, frame);
    }

    @Test
    void decodeHonoursReaderIndexAndLeavesFrameIndicesAlone() {
        TensorChunk in = whole(alloc, DType.INT32, 77, 2, 3);
        ByteBuf flat = contiguousFrame(alloc, in);
        ByteBuf prefixed = alloc.buffer().writeBytes(new byte[] {9, 9, 9, 9, 9}).writeBytes(flat);
        prefixed.readerIndex(5);

        TensorChunk out = TensorChunkCodec.decode(prefixed);

        assertThat(prefixed.readerIndex()).isEqualTo(5);
        assertThat(out.key()).isEqualTo(77);
        assertThat(bytes(out.data())).isEqualTo(bytes(in.data()));
        release(in, flat, prefixed, out);
    }

    @Test
    void encodeIsZeroCopyForData() {
        TensorChunk in = whole(alloc, DType.FLOAT32, 1, 8);
        ByteBuf frame = TensorChunkCodec.encode(alloc, in);
        int header = TensorChunkCodec.FIXED_HEADER_BYTES + 8;

        in.data().setByte(3, 0x5a);

        assertThat(frame.getByte(frame.readerIndex() + header + 3)).isEqualTo((byte) 0x5a);
        release(in, frame);
    }

    @Test
    void decodeIsZeroCopyForDataOfAnEncodedFrame() {
        TensorChunk in = whole(alloc, DType.FLOAT64, 1, 4);
        ByteBuf frame = TensorChunkCodec.encode(alloc, in);
        TensorChunk out = TensorChunkCodec.decode(frame);
        int header = TensorChunkCodec.FIXED_HEADER_BYTES + 8;

        frame.setByte(frame.readerIndex() + header + 17, 0x33);
        frame.setByte(frame.readerIndex() + header, 0x44);

        assertThat(out.data().getByte(out.data().readerIndex() + 17)).isEqualTo((byte) 0x33);
        assertThat(out.data().getByte(out.data().readerIndex())).isEqualTo((byte) 0x44);
        release(in, frame, out);
    }

    @Test
    void decodedDataSharesTheDirectFramesMemory() {
        TensorChunk in = whole(alloc, DType.FLOAT32, 1, 2, 5);
        ByteBuf frame = contiguousFrame(alloc, in);
        assumeTrue(frame.hasMemoryAddress(), "direct buffers expose no memory address on this JVM");

        TensorChunk out = TensorChunkCodec.decode(frame);

        int header = TensorChunkCodec.FIXED_HEADER_BYTES + 16;
        assertThat(out.data().hasMemoryAddress()).isTrue();
        assertThat(out.data().memoryAddress() + out.data().readerIndex())
                .isEqualTo(frame.memoryAddress() + frame.readerIndex() + header);
        release(in, frame, out);
    }

    @Test
    void decodedChunkHoldsItsOwnReferenceToTheFrame() {
        TensorChunk in = whole(alloc, DType.UINT8, 1, 16);
        ByteBuf frame = contiguousFrame(alloc, in);
        byte[] expected = bytes(in.data());
        in.release();

        TensorChunk out = TensorChunkCodec.decode(frame);
        assertThat(frame.refCnt()).isEqualTo(2);
        frame.release();

        assertThat(bytes(out.data())).isEqualTo(expected);
        assertThat(out.release()).isTrue();
        assertThat(frame.refCnt()).isZero();
    }

    @Test
    void encodeLeavesTheChunkUsableAfterTheFrameIsReleased() {
        TensorChunk in = whole(alloc, DType.INT64, 1, 3);
        byte[] expected = bytes(in.data());
        ByteBuf frame = TensorChunkCodec.encode(alloc, in);
        frame.release();

        assertThat(in.refCnt()).isEqualTo(1);
        assertThat(bytes(in.data())).isEqualTo(expected);
        in.release();
    }

    @Test
    void encodeRejectsRankAboveEightWithoutAllocating() {
        long[] shape = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        TensorChunk in = whole(alloc, DType.FLOAT32, 1, shape);
        int before = alloc.allocations();

        assertThatThrownBy(() -> TensorChunkCodec.encode(alloc, in))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("rank 9");
        assertThat(alloc.allocations()).isEqualTo(before);
        in.release();
    }

    @Test
    void encodeRejectsDataNotMatchingCount() {
        TensorChunk in = new TensorChunk(DType.FLOAT32, 8, 0, 0, 0, new long[] {4}, 0, 4,
                TestChunks.pattern(alloc, 15, 0));

        assertThatThrownBy(() -> TensorChunkCodec.encode(alloc, in))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("15 data bytes, expected 16");
        in.release();
    }

    /** A valid FLOAT32 frame of shape [2, 3], count 6: 64 header bytes then 24 data bytes. */
    private ByteBuf validFrame() {
        TensorChunk in = chunk(alloc, DType.FLOAT32, 3, 1, 0, 0, new long[] {2, 3}, 0, 6);
        try {
            return contiguousFrame(alloc, in);
        } finally {
            in.release();
        }
    }

    static Stream<Arguments> malformations() {
        return Stream.of(
                malformed("bad magic", f -> f.setIntLE(0, 0xdeadbeef), "bad magic 0xdeadbeef"),
                malformed("bad version", f -> f.setByte(4, 2), "unsupported frame version 2"),
                malformed("unknown dtype", f -> f.setByte(5, 42), "unknown dtype code 42"),
                malformed("dtype code 0", f -> f.setByte(5, 0), "unknown dtype code 0"),
                malformed("rank 9", f -> f.setShortLE(6, 9), "rank 9 outside 0..8"),
                malformed("negative rank", f -> f.setShortLE(6, 0xffff), "rank -1 outside 0..8"),
                malformed("shape cut short", f -> f.setShortLE(6, 8), "88 bytes, shorter than its 112-byte header"),
                malformed("negative dimension", f -> f.setLongLE(56, -3), "negative dimension -3 at axis 1"),
                malformed("shape product overflow", f -> f.setLongLE(48, 1L << 32).setLongLE(56, 1L << 32),
                        "shape overflows"),
                malformed("chunk beyond the tensor", f -> f.setLongLE(32, 1), "outside tensor of 6 elements"),
                malformed("negative offset", f -> f.setLongLE(32, -1), "outside tensor of 6 elements"),
                malformed("negative count", f -> f.setIntLE(28, -1), "outside tensor of 6 elements"),
                malformed("offset overflowing past the tensor", f -> f.setLongLE(32, Long.MAX_VALUE),
                        "outside tensor of 6 elements"),
                malformed("count above data", f -> f.setLongLE(48, 4).setIntLE(28, 7),
                        "frame carries 24 data bytes, header announces 7 FLOAT32 elements = 28 bytes"),
                malformed("extra data byte", f -> f.writeByte(0),
                        "frame carries 25 data bytes, header announces 6 FLOAT32 elements = 24 bytes"),
                malformed("missing data byte", f -> f.writerIndex(f.writerIndex() - 1),
                        "frame carries 23 data bytes, header announces 6 FLOAT32 elements = 24 bytes"));
    }

    private static Arguments malformed(String name, Consumer<ByteBuf> damage, String messagePart) {
        return Arguments.of(name, damage, messagePart);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformations")
    void malformedFrameIsRejectedNamingTheProblem(String name, Consumer<ByteBuf> damage, String messagePart) {
        ByteBuf frame = validFrame();
        damage.accept(frame);

        assertMalformed(frame, messagePart);

        assertThat(frame.refCnt()).as("a rejected frame is neither retained nor released").isEqualTo(1);
        frame.release();
    }

    @Test
    void frameShorterThanTheFixedHeaderIsRejected() {
        ByteBuf frame = alloc.buffer(47).writeIntLE(TensorChunkCodec.MAGIC).writeZero(43);
        assertMalformed(frame, "47 bytes, shorter than the 48-byte header");
        frame.release();

        ByteBuf empty = alloc.buffer(0);
        assertMalformed(empty, "0 bytes");
        empty.release();
    }

    @Test
    void trackerCatchesADeliberateLeak() {
        LeakTrackingAllocator tracker = LeakTrackingAllocator.pooledDirect();
        TensorChunk in = whole(tracker, DType.FLOAT32, 1, 4);
        ByteBuf frame = TensorChunkCodec.encode(tracker, in);
        TensorChunk out = TensorChunkCodec.decode(frame);
        in.release();
        frame.release();
        // "forget" to release the decoded chunk: it pins the frame, which pins the chunk's data

        assertThat(tracker.unreleased()).isNotEmpty();
        assertThatThrownBy(tracker::assertAllReleased)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not released");

        out.release();
        tracker.assertAllReleased();
    }

    @Test
    void trackerCatchesAForgottenRetainedSlice() {
        LeakTrackingAllocator tracker = LeakTrackingAllocator.unpooledHeap();
        ByteBuf buf = tracker.buffer(16).writeZero(16);
        ByteBuf slice = buf.retainedSlice(0, 8);
        buf.release();

        assertThatThrownBy(tracker::assertAllReleased).isInstanceOf(AssertionError.class)
                .hasMessageContaining("1 of 1 buffers not released");

        slice.release();
        tracker.assertAllReleased();
    }

    private void assertRoundTrip(TensorChunk in) {
        int headerBytes = TensorChunkCodec.FIXED_HEADER_BYTES + 8 * in.shape().length;
        ByteBuf frame = TensorChunkCodec.encode(alloc, in);
        assertThat(frame.readableBytes()).isEqualTo(headerBytes + in.count() * in.dtype().size());
        assertThat(frame.getIntLE(frame.readerIndex())).isEqualTo(TensorChunkCodec.MAGIC);

        TensorChunk fromComposite = TensorChunkCodec.decode(frame);
        assertSameChunk(fromComposite, in);

        ByteBuf flat = contiguousFrame(alloc, in);
        TensorChunk fromFlat = TensorChunkCodec.decode(flat);
        assertSameChunk(fromFlat, in);

        release(frame, fromComposite, flat, fromFlat);
    }

    private static void assertSameChunk(TensorChunk out, TensorChunk in) {
        assertThat(out.dtype()).isEqualTo(in.dtype());
        assertThat(out.key()).isEqualTo(in.key());
        assertThat(out.step()).isEqualTo(in.step());
        assertThat(out.sender()).isEqualTo(in.sender());
        assertThat(out.tag()).isEqualTo(in.tag());
        assertThat(out.shape()).containsExactly(in.shape());
        assertThat(out.offset()).isEqualTo(in.offset());
        assertThat(out.count()).isEqualTo(in.count());
        assertThat(out.data().readableBytes()).isEqualTo(in.count() * in.dtype().size());
        assertThat(bytes(out.data())).isEqualTo(bytes(in.data()));
    }

    private static void assertMalformed(ByteBuf frame, String messagePart) {
        assertThatThrownBy(() -> TensorChunkCodec.decode(frame))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME))
                .hasMessageStartingWith("[MALFORMED_FRAME] ")
                .hasMessageContaining(messagePart);
    }

    private static void release(Object... refs) {
        for (Object r : refs) {
            if (r instanceof ByteBuf b) {
                b.release();
            } else {
                ((TensorChunk) r).release();
            }
        }
    }
}
