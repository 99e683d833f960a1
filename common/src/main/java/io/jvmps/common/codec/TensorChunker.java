package io.jvmps.common.codec;

import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts one tensor into {@link TensorChunk}s of at most {@code maxChunkBytes} data bytes each,
 * in ascending offset order. The chunks are retained slices of the caller's buffer (no copy);
 * the caller keeps its own reference and each chunk must be released by its consumer.
 * Stateless and thread-safe.
 */
public final class TensorChunker {
    /** Default chunk size: 1 MiB of element bytes, well under RSocket's 16 MiB frame limit. */
    public static final int DEFAULT_CHUNK_BYTES = 1 << 20;

    private TensorChunker() {
    }

    /**
     * @param dtype         element type
     * @param key           the tensor's key
     * @param step          step number ({@code -1} for initial values)
     * @param sender        rank of the sender
     * @param tag           free tag copied into every chunk
     * @param shape         the tensor's shape; its element count times the dtype width must equal
     *                      {@code data.readableBytes()}
     * @param data          element bytes, little-endian; not consumed
     * @param maxChunkBytes upper bound of data bytes per chunk, at least one element
     * @return one chunk for an empty tensor, otherwise ceil(bytes / chunk) chunks
     */
    public static List<TensorChunk> split(DType dtype, long key, long step, int sender, long tag, long[] shape,
                                          ByteBuf data, int maxChunkBytes) {
        long total = TensorChunk.elementCount(shape);
        if (total * dtype.size() != data.readableBytes()) {
            throw new IllegalArgumentException("shape holds " + total + " " + dtype + " elements but buffer has "
                    + data.readableBytes() + " bytes");
        }
        int perChunk = Math.max(1, maxChunkBytes / dtype.size());
        List<TensorChunk> chunks = new ArrayList<>((int) Math.max(1, (total + perChunk - 1) / perChunk));
        long offset = 0;
        do {
            int count = (int) Math.min(perChunk, total - offset);
            ByteBuf slice = data.retainedSlice(data.readerIndex() + (int) (offset * dtype.size()), count * dtype.size());
            chunks.add(new TensorChunk(dtype, key, step, sender, tag, shape, offset, count, slice));
            offset += count;
        } while (offset < total);
        return chunks;
    }
}
