package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.jvmps.common.codec.TestChunks.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TensorChunkerAndAssemblerTest {
    private static final int MIB = 1 << 20;

    private final LeakTrackingAllocator alloc = LeakTrackingAllocator.pooledDirect();
    private final List<TensorChunk> firstChunksSeen = new ArrayList<>();

    @AfterEach
    void everyBufferReleased() {
        alloc.assertAllReleased();
    }

    /** Destination function that records its calls and hands out a fresh heap buffer of the tensor's size. */
    private ByteBuffer freshDestination(TensorChunk first) {
        firstChunksSeen.add(first);
        return ByteBuffer.allocate(Math.toIntExact(first.totalElements() * first.dtype().size()));
    }

    private ByteBuffer mustNotBeCalled(TensorChunk first) {
        throw new AssertionError("destination requested for " + first);
    }

    @Test
    void tensorAbove16MiBSurvivesSplitEncodeDecodeAndAssemblyByteForByte() {
        long[] shape = {1021, 4365}; // 4,456,665 floats = 17,826,660 bytes, not a multiple of 1 MiB
        int elements = 1021 * 4365;
        int bytes = elements * 4;
        ByteBuffer values = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < elements; i++) {
            values.putFloat(i * 0.25f - 1000f);
        }
        ByteBuf source = alloc.directBuffer(bytes).writeBytes(values.flip()); // one access: PARANOID is slow per call

        List<TensorChunk> chunks = TensorChunker.split(DType.FLOAT32, 0x7_0000_0003L, 41, 2, 9, shape, source,
                TensorChunker.DEFAULT_CHUNK_BYTES);

        assertThat(bytes).isGreaterThan(16 * MIB);
        assertThat(chunks).hasSize((bytes + MIB - 1) / MIB).hasSize(18);
        TensorAssembler assembler = new TensorAssembler(32L * MIB, this::freshDestination);
        TensorAssembler.Assembled done = null;
        long expectedOffset = 0;
        for (int i = 0; i < chunks.size(); i++) {
            TensorChunk original = chunks.get(i);
            assertThat(original.offset()).isEqualTo(expectedOffset);
            assertThat(original.data().readableBytes()).isLessThanOrEqualTo(MIB);
            assertThat(original.isLast()).isEqualTo(i == chunks.size() - 1);
            expectedOffset += original.count();

            ByteBuf frame = TensorChunkCodec.encode(alloc, original);
            original.release();
            TensorChunk decoded = TensorChunkCodec.decode(frame);
            frame.release();
            try {
                TensorAssembler.Assembled result = assembler.accept(decoded);
                if (i < chunks.size() - 1) {
                    assertThat(result).isNull();
                    assertThat(assembler.idle()).isFalse();
                } else {
                    done = result;
                }
            } finally {
                decoded.release();
            }
        }

        assertThat(expectedOffset).isEqualTo(elements);
        assertThat(firstChunksSeen).hasSize(1);
        assertThat(assembler.idle()).isTrue();
        assertThat(done).isNotNull();
        assertThat(done.key()).isEqualTo(0x7_0000_0003L);
        assertThat(done.step()).isEqualTo(41);
        assertThat(done.sender()).isEqualTo(2);
        assertThat(done.tag()).isEqualTo(9);
        assertThat(done.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(done.shape()).containsExactly(shape);
        assertThat(done.data().position()).isZero();
        assertThat(done.data().remaining()).isEqualTo(bytes);
        assertThat(done.data().array()).as("reassembled bytes equal the source byte for byte")
                .isEqualTo(bytes(source));
        assertThat(done.data().getFloat(4 * (elements - 1))).isEqualTo((elements - 1) * 0.25f - 1000f);
        source.release();
    }

    @ParameterizedTest(name = "{0} x {1} in chunks of {2} bytes -> {3}")
    @CsvSource({
            "FLOAT32, 1, 1048576, 1",
            "FLOAT32, 262144, 1048576, 1",
            "FLOAT32, 262145, 1048576, 2",
            "FLOAT64, 1000, 800, 10",
            "FLOAT64, 1001, 800, 11",
            "UINT8, 10, 3, 4",
            "INT32, 7, 4, 7",
            "INT64, 5, 4, 5",   // less than one element per chunk: one element each
    })
    void chunkCountIsCeilOfBytesOverChunkSize(DType dtype, int elements, int chunkBytes, int expectedChunks) {
        ByteBuf source = TestChunks.pattern(alloc, elements * dtype.size(), 3);
        List<TensorChunk> chunks = TensorChunker.split(dtype, 1, 2, 3, 4, new long[] {elements}, source, chunkBytes);

        assertThat(chunks).hasSize(expectedChunks);
        assertThat(TensorChunker.chunkCount(dtype, elements, chunkBytes)).as("the count split cuts").isEqualTo(expectedChunks);
        int perChunkBytes = Math.max(dtype.size(), chunkBytes / dtype.size() * dtype.size());
        assertThat(expectedChunks).isEqualTo((elements * dtype.size() + perChunkBytes - 1) / perChunkBytes);
        long offset = 0;
        for (TensorChunk c : chunks) {
            assertThat(c.offset()).isEqualTo(offset);
            assertThat(c.data().readableBytes()).isEqualTo(c.count() * dtype.size()).isLessThanOrEqualTo(perChunkBytes);
            assertThat(bytes(c.data())).isEqualTo(
                    bytes(source.slice((int) offset * dtype.size(), c.count() * dtype.size())));
            assertThat(c.dtype()).isEqualTo(dtype);
            assertThat(c.shape()).containsExactly(elements);
            offset += c.count();
            c.release();
        }
        assertThat(offset).isEqualTo(elements);
        assertThat(source.refCnt()).isEqualTo(1);
        source.release();
    }

    @Test
    void chunksAreSlicesOfTheCallersBufferWhichKeepsItsReference() {
        ByteBuf source = TestChunks.pattern(alloc, 64, 0);
        List<TensorChunk> chunks = TensorChunker.split(DType.FLOAT32, 1, 0, 0, 0, new long[] {16}, source, 16);

        source.setByte(20, 0x7f);
        assertThat(chunks.get(1).data().getByte(chunks.get(1).data().readerIndex() + 4)).isEqualTo((byte) 0x7f);

        chunks.forEach(TensorChunk::release);
        assertThat(source.refCnt()).isEqualTo(1);
        assertThat(source.readableBytes()).isEqualTo(64);
        source.release();
    }

    @Test
    void splitRespectsTheSourceReaderIndex() {
        ByteBuf source = TestChunks.pattern(alloc, 20, 0);
        source.readerIndex(4);
        List<TensorChunk> chunks = TensorChunker.split(DType.INT32, 1, 0, 0, 0, new long[] {4}, source, 8);

        assertThat(chunks).hasSize(2);
        assertThat(bytes(chunks.get(0).data())).isEqualTo(bytes(source.slice(4, 8)));
        assertThat(bytes(chunks.get(1).data())).isEqualTo(bytes(source.slice(12, 8)));
        chunks.forEach(TensorChunk::release);
        source.release();
    }

    @Test
    void emptyTensorIsOneChunkAndAssemblesToAnEmptyBuffer() {
        ByteBuf empty = alloc.buffer(0);
        List<TensorChunk> chunks = TensorChunker.split(DType.FLOAT32, 5, -1, 0, 0, new long[] {0, 4}, empty,
                TensorChunker.DEFAULT_CHUNK_BYTES);

        assertThat(chunks).hasSize(1);
        TensorChunk only = chunks.get(0);
        assertThat(only.count()).isZero();
        assertThat(only.offset()).isZero();
        assertThat(only.isLast()).isTrue();

        TensorAssembler assembler = new TensorAssembler(MIB, this::freshDestination);
        List<TensorChunk> decoded = throughTheWire(chunks);
        TensorAssembler.Assembled done = assembler.accept(decoded.get(0));
        decoded.forEach(TensorChunk::release);

        assertThat(done).isNotNull();
        assertThat(done.key()).isEqualTo(5);
        assertThat(done.step()).isEqualTo(-1);
        assertThat(done.shape()).containsExactly(0, 4);
        assertThat(done.data().remaining()).isZero();
        assertThat(assembler.idle()).isTrue();
        empty.release();
    }

    @Test
    void scalarIsOneChunkOfOneElement() {
        ByteBuf source = alloc.buffer(8).writeDoubleLE(Math.PI);
        List<TensorChunk> chunks = TensorChunker.split(DType.FLOAT64, 9, 3, 0, 0, new long[0], source, 4);

        assertThat(chunks).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(1));
        TensorAssembler assembler = new TensorAssembler(8, this::freshDestination);
        List<TensorChunk> decoded = throughTheWire(chunks);
        TensorAssembler.Assembled done = assembler.accept(decoded.get(0));
        decoded.forEach(TensorChunk::release);

        assertThat(done.shape()).isEmpty();
        assertThat(done.data().getDouble(0)).isEqualTo(Math.PI);
        source.release();
    }

    @Test
    void splitRejectsABufferThatDoesNotMatchTheShape() {
        ByteBuf source = TestChunks.pattern(alloc, 15, 0);
        assertThatThrownBy(() -> TensorChunker.split(DType.FLOAT32, 1, 0, 0, 0, new long[] {4}, source, 8))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 FLOAT32 elements")
                .hasMessageContaining("15 bytes");
        assertThat(source.refCnt()).isEqualTo(1);
        source.release();
    }

    @Test
    void idleAndPendingKeyFollowTheStream() {
        List<TensorChunk> a = decodedChunks(11, 12, 4);
        List<TensorChunk> b = decodedChunks(22, 4, 4);
        TensorAssembler assembler = new TensorAssembler(MIB, this::freshDestination);
        assertThat(assembler.idle()).isTrue();
        assertThat(assembler.pendingKey()).isEqualTo(-1);

        assertThat(assembler.accept(a.get(0))).isNull();
        assertThat(assembler.idle()).isFalse();
        assertThat(assembler.pendingKey()).isEqualTo(11);
        assertThat(assembler.accept(a.get(1))).isNull();
        assertThat(assembler.pendingKey()).isEqualTo(11);
        TensorAssembler.Assembled first = assembler.accept(a.get(2));
        assertThat(first.key()).isEqualTo(11);
        assertThat(assembler.idle()).isTrue();
        assertThat(assembler.pendingKey()).isEqualTo(-1);

        TensorAssembler.Assembled second = assembler.accept(b.get(0));
        assertThat(second.key()).isEqualTo(22);
        assertThat(assembler.idle()).isTrue();
        assertThat(firstChunksSeen).extracting(TensorChunk::key).containsExactly(11L, 22L);

        assertThat(first.data().remaining()).isEqualTo(48);
        assertThat(second.data().remaining()).isEqualTo(16);
        release(a, b);
    }

    @Test
    void writesAtTheDestinationsPositionWithoutTouchingTheRest() {
        List<TensorChunk> chunks = decodedChunks(3, 6, 4);
        byte[] expected = new byte[24];
        int at = 0;
        for (TensorChunk c : chunks) {
            byte[] part = bytes(c.data());
            System.arraycopy(part, 0, expected, at, part.length);
            at += part.length;
        }
        ByteBuffer backing = ByteBuffer.allocate(40);
        backing.position(8);
        TensorAssembler assembler = new TensorAssembler(MIB, first -> backing);

        TensorAssembler.Assembled done = null;
        for (TensorChunk c : chunks) {
            done = assembler.accept(c);
        }

        byte[] written = new byte[24];
        backing.duplicate().position(8).get(written);
        assertThat(written).isEqualTo(expected);
        assertThat(backing.array()).startsWith(new byte[8]).endsWith(new byte[8]);
        assertThat(done.data().remaining()).isEqualTo(24);
        assertThat(done.data().get(0)).isEqualTo(expected[0]);
        release(chunks);
    }

    @Test
    void rejectsAChunkThatSkipsAhead() {
        List<TensorChunk> chunks = decodedChunks(7, 12, 4);
        TensorAssembler assembler = new TensorAssembler(MIB, this::freshDestination);
        assembler.accept(chunks.get(0));

        assertMalformed(() -> assembler.accept(chunks.get(2)), "does not continue key 7 at element 4");
        release(chunks);
    }

    @Test
    void rejectsChunksInReverseOrder() {
        List<TensorChunk> chunks = decodedChunks(7, 8, 4);
        TensorAssembler assembler = new TensorAssembler(MIB, this::mustNotBeCalled);

        assertMalformed(() -> assembler.accept(chunks.get(1)), "starts at element 4, expected 0");
        assertThat(assembler.idle()).isTrue();
        release(chunks);
    }

    @Test
    void rejectsAChunkOfAnotherKeyBeforeThePreviousTensorCompleted() {
        List<TensorChunk> a = decodedChunks(7, 8, 4);
        List<TensorChunk> b = decodedChunks(8, 8, 4);
        TensorAssembler assembler = new TensorAssembler(MIB, this::freshDestination);
        assembler.accept(a.get(0));

        assertMalformed(() -> assembler.accept(b.get(0)), "does not continue key 7");
        assertThat(assembler.pendingKey()).isEqualTo(7);
        release(a, b);
    }

    @Test
    void rejectsAContinuationWithAnotherShapeDtypeStepSenderOrTag() {
        List<TensorChunk> a = decodedChunks(7, 8, 4);
        TensorAssembler assembler = new TensorAssembler(MIB, this::freshDestination);
        assembler.accept(a.get(0));
        TensorChunk otherShape = TestChunks.chunk(alloc, DType.FLOAT32, 7, 1, 0, 0, new long[] {2, 4}, 4, 4);
        TensorChunk otherDtype = TestChunks.chunk(alloc, DType.INT32, 7, 1, 0, 0, new long[] {8}, 4, 4);

        TensorChunk otherStep = TestChunks.chunk(alloc, DType.FLOAT32, 7, 2, 0, 0, new long[] {8}, 4, 4);
        TensorChunk otherSender = TestChunks.chunk(alloc, DType.FLOAT32, 7, 1, 3, 0, new long[] {8}, 4, 4);
        TensorChunk otherTag = TestChunks.chunk(alloc, DType.FLOAT32, 7, 1, 0, 9, new long[] {8}, 4, 4);

        assertMalformed(() -> assembler.accept(otherShape), "does not continue key 7");
        assertMalformed(() -> assembler.accept(otherDtype), "does not continue key 7");
        assertMalformed(() -> assembler.accept(otherStep), "does not continue key 7");
        assertMalformed(() -> assembler.accept(otherSender), "does not continue key 7");
        assertMalformed(() -> assembler.accept(otherTag), "does not continue key 7");
        release(a, List.of(otherShape, otherDtype, otherStep, otherSender, otherTag));
    }

    @Test
    void rejectsAFirstChunkNotAtOffsetZeroBeforeAskingForADestination() {
        TensorChunk late = TestChunks.chunk(alloc, DType.FLOAT32, 9, 1, 0, 0, new long[] {10}, 3, 2);
        TensorAssembler assembler = new TensorAssembler(MIB, this::mustNotBeCalled);

        assertMalformed(() -> assembler.accept(late), "first chunk of key 9 starts at element 3, expected 0");
        assertThat(assembler.idle()).isTrue();
        late.release();
    }

    @Test
    void rejectsATensorAboveTheCapBeforeAskingForADestination() {
        List<TensorChunk> chunks = decodedChunks(4, 1025, 1024); // 4100 bytes
        TensorAssembler assembler = new TensorAssembler(4096, this::mustNotBeCalled);

        assertThatThrownBy(() -> assembler.accept(chunks.get(0)))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE))
                .hasMessageContaining("key 4")
                .hasMessageContaining("4100 bytes")
                .hasMessageContaining("cap of 4096 bytes");
        assertThat(assembler.idle()).isTrue();
        release(chunks);
    }

    @Test
    void acceptsATensorOfExactlyTheCap() {
        List<TensorChunk> chunks = decodedChunks(4, 1024, 1024);
        TensorAssembler assembler = new TensorAssembler(4096, this::freshDestination);

        assertThat(assembler.accept(chunks.get(0))).isNotNull();
        release(chunks);
    }

    @Test
    void rejectsATensorWhoseByteSizeOverflowsALongAsTooLarge() {
        // 2^61 float32 elements = 2^63 bytes: decodable (the chunk itself carries one element)
        // but wildly above any cap; the byte count must not wrap around to a negative number.
        for (long[] shape : List.of(new long[] {1L << 61}, new long[] {1L << 31, 1L << 31})) {
            TensorChunk in = TestChunks.chunk(alloc, DType.FLOAT32, 6, 0, 0, 0, shape, 0, 1);
            List<TensorChunk> decoded = throughTheWire(List.of(in));
            TensorAssembler assembler = new TensorAssembler(64L * MIB, this::mustNotBeCalled);

            assertThatThrownBy(() -> assembler.accept(decoded.get(0)))
                    .isInstanceOfSatisfying(PsException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE))
                    .hasMessageContaining("key 6");
            assertThat(assembler.idle()).isTrue();
            release(decoded);
        }
        TensorChunk wrapsToZero = TestChunks.chunk(alloc, DType.FLOAT64, 6, 0, 0, 0, new long[] {1L << 61}, 0, 1);
        TensorAssembler assembler = new TensorAssembler(Long.MAX_VALUE, this::mustNotBeCalled);
        assertThatThrownBy(() -> assembler.accept(wrapsToZero))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE));
        wrapsToZero.release();
    }

    @Test
    void anErrorFromTheDestinationFunctionPropagatesAndLeavesTheAssemblerIdle() {
        List<TensorChunk> chunks = decodedChunks(13, 8, 4);
        Function<TensorChunk, ByteBuffer> unknown = c -> {
            throw new PsException(ErrorCode.UNKNOWN_KEY, "no slice " + c.key());
        };
        TensorAssembler assembler = new TensorAssembler(MIB, unknown);

        assertThatThrownBy(() -> assembler.accept(chunks.get(0)))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_KEY));
        assertThat(assembler.idle()).isTrue();
        release(chunks);
    }

    /** Splits a patterned float32 tensor of {@code elements} into chunks of {@code perChunk} elements, via the wire. */
    private List<TensorChunk> decodedChunks(long key, int elements, int perChunk) {
        ByteBuf source = TestChunks.pattern(alloc, elements * 4, (int) key);
        try {
            return throughTheWire(TensorChunker.split(DType.FLOAT32, key, 1, 0, 0, new long[] {elements}, source,
                    perChunk * 4));
        } finally {
            source.release();
        }
    }

    /** Encodes and decodes each chunk, releasing the originals and the frames. */
    private List<TensorChunk> throughTheWire(List<TensorChunk> chunks) {
        List<TensorChunk> out = new ArrayList<>();
        for (TensorChunk c : chunks) {
            ByteBuf frame = TensorChunkCodec.encode(alloc, c);
            c.release();
            out.add(TensorChunkCodec.decode(frame));
            frame.release();
        }
        return out;
    }

    @SafeVarargs
    private static void release(List<TensorChunk>... lists) {
        for (List<TensorChunk> l : lists) {
            l.forEach(TensorChunk::release);
        }
    }

    private static void assertMalformed(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String part) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME))
                .hasMessageContaining(part);
    }
}
