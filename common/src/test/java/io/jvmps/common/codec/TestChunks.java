package io.jvmps.common.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Test helper: builds chunks and frames with recognisable data bytes. */
final class TestChunks {
    private TestChunks() {
    }

    /** @return {@code bytes} bytes of a pattern that differs at every position of a 251-byte cycle */
    static ByteBuf pattern(ByteBufAllocator alloc, int bytes, int seed) {
        byte[] data = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            data[i] = (byte) ((i * 31L + seed) % 251);
        }
        return alloc.buffer(bytes).writeBytes(data); // one write: PARANOID records every buffer access
    }

    /** @return a chunk owning a fresh patterned buffer of exactly {@code count * dtype.size()} bytes */
    static TensorChunk chunk(ByteBufAllocator alloc, DType dtype, long key, long step, int sender, long tag,
                             long[] shape, long offset, int count) {
        return new TensorChunk(dtype, key, step, sender, tag, shape, offset, count,
                pattern(alloc, count * dtype.size(), (int) (key ^ offset) & 0x7f));
    }

    /** @return a whole tensor (offset 0, every element) as one chunk */
    static TensorChunk whole(ByteBufAllocator alloc, DType dtype, long key, long... shape) {
        return chunk(alloc, dtype, key, 7, 1, 0, shape, 0, (int) TensorChunk.elementCount(shape));
    }

    /** @return the readable bytes of a buffer, not consuming them */
    static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), out);
        return out;
    }

    /**
     * Encodes a chunk and copies the frame into one contiguous buffer from {@code alloc}, as a
     * network receive would deliver it; releases the encoded frame but not the chunk.
     */
    static ByteBuf contiguousFrame(ByteBufAllocator alloc, TensorChunk chunk) {
        ByteBuf encoded = TensorChunkCodec.encode(alloc, chunk);
        try {
            ByteBuf flat = alloc.directBuffer(encoded.readableBytes());
            flat.writeBytes(encoded, encoded.readerIndex(), encoded.readableBytes());
            return flat;
        } finally {
            encoded.release();
        }
    }
}
