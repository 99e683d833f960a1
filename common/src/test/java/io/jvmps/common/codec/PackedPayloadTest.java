package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jvmps.common.codec.TestChunks.bytes;
import static io.jvmps.common.codec.TestChunks.chunk;
import static io.jvmps.common.codec.TestChunks.whole;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Several chunk frames back to back in one payload: round trips, and damage anywhere rejected without leaks. */
class PackedPayloadTest {
    private final LeakTrackingAllocator alloc = LeakTrackingAllocator.pooledDirect();

    @AfterEach
    void everyBufferReleased() {
        alloc.assertAllReleased();
    }

    private List<TensorChunk> threeChunks() {
        return List.of(whole(alloc, DType.FLOAT32, 11, 3, 2),
                chunk(alloc, DType.FLOAT64, 12, 5, 1, 77, new long[] {10}, 4, 3),
                whole(alloc, DType.INT64, 13));
    }

    /** @return the packed frames copied into one contiguous buffer, as a network receive delivers them */
    private ByteBuf packed(List<TensorChunk> chunks) {
        ByteBuf encoded = TensorChunkCodec.encodeAll(alloc, chunks);
        try {
            long expected = chunks.stream().mapToLong(TensorChunkCodec::encodedBytes).sum();
            assertThat((long) encoded.readableBytes()).as("encodedBytes adds up").isEqualTo(expected);
            return alloc.directBuffer(encoded.readableBytes()).writeBytes(encoded, encoded.readerIndex(),
                    encoded.readableBytes());
        } finally {
            encoded.release();
        }
    }

    @Test
    void packedChunksRoundTripInOrder() {
        List<TensorChunk> in = threeChunks();
        ByteBuf payload = packed(in);

        List<TensorChunk> out = TensorChunkCodec.decodeAll(payload);

        assertThat(out).hasSize(3);
        for (int i = 0; i < 3; i++) {
            TensorChunk a = out.get(i);
            TensorChunk b = in.get(i);
            assertThat(a.key()).isEqualTo(b.key());
            assertThat(a.dtype()).isEqualTo(b.dtype());
            assertThat(a.step()).isEqualTo(b.step());
            assertThat(a.tag()).isEqualTo(b.tag());
            assertThat(a.shape()).isEqualTo(b.shape());
            assertThat(a.offset()).isEqualTo(b.offset());
            assertThat(bytes(a.data())).isEqualTo(bytes(b.data()));
        }
        assertThat(payload.readerIndex()).as("the payload's indices are left alone").isZero();
        out.forEach(TensorChunk::release);
        in.forEach(TensorChunk::release);
        payload.release();
    }

    @Test
    void aSingleFrameDecodesAloneAsBefore() {
        TensorChunk in = whole(alloc, DType.FLOAT32, 5, 4);
        ByteBuf payload = packed(List.of(in));

        List<TensorChunk> out = TensorChunkCodec.decodeAll(payload);

        assertThat(out).singleElement().satisfies(c -> assertThat(bytes(c.data())).isEqualTo(bytes(in.data())));
        out.forEach(TensorChunk::release);
        in.release();
        payload.release();
    }

    @Test
    void bytesAfterTheLastFrameAreRejected() {
        assertDamageRejected(p -> p.writeZero(3), "frame 4 of the payload: frame has 3 bytes, shorter than the 48-byte header");
    }

    @Test
    void aTruncatedLastFrameIsRejected() {
        assertDamageRejected(p -> p.writerIndex(p.writerIndex() - 1),
                "frame 3 of the payload: frame carries 7 data bytes, header announces 1 INT64 elements = 8 bytes");
    }

    @Test
    void aDamagedMiddleFrameIsRejectedNamingIt() {
        int second = TensorChunkCodec.FIXED_HEADER_BYTES + 8 * 2 + 6 * 4; // the first frame: rank 2, six floats
        assertDamageRejected(p -> p.setIntLE(second, 0x12345678), "frame 2 of the payload: bad magic 0x12345678");
    }

    @Test
    void encodeAllRefusesAnEmptyPayload() {
        assertThatThrownBy(() -> TensorChunkCodec.encodeAll(alloc, List.of()))
                .isInstanceOf(PsException.class)
                .hasMessageContaining("at least one chunk");
    }

    private void assertDamageRejected(java.util.function.Consumer<ByteBuf> damage, String message) {
        List<TensorChunk> in = threeChunks();
        ByteBuf payload = packed(in);
        damage.accept(payload);

        assertThatThrownBy(() -> TensorChunkCodec.decodeAll(payload))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_FRAME))
                .hasMessageContaining(message);

        assertThat(payload.refCnt()).as("frames decoded before the damage were released again").isEqualTo(1);
        in.forEach(TensorChunk::release);
        payload.release();
    }
}
