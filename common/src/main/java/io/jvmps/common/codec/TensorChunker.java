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
        int perChunk = elementsPerChunk(dtype, maxChunkBytes);
        List<TensorChunk> chunks = new ArrayList<>((int) chunkCount(dtype, total, maxChunkBytes));
        long offset = 0;
        do {
            int count = (int) Math.min(perChunk, total - offset);
            ByteBuf slice = data.retainedSlice(data.readerIndex() + (int) (offset * dtype.size()), count * dtype.size());
            chunks.add(new TensorChunk(dtype, key, step, sender, tag, shape, offset, count, slice));
            offset += count;
        } while (offset < total);
        return chunks;
    }

    /**
     * @param dtype         element type
     * @param elements      the tensor's element count, &gt;= 0
     * @param maxChunkBytes upper bound of data bytes per chunk
     * @return how many chunks {@link #split} cuts such a tensor into: one for an empty tensor, otherwise
     *         ceil(elements / elements per chunk), a chunk holding at least one element
     */
    public static long chunkCount(DType dtype, long elements, int maxChunkBytes) {
        int perChunk = elementsPerChunk(dtype, maxChunkBytes);
        return Math.max(1, (elements + perChunk - 1) / perChunk);
    }

    private static int elementsPerChunk(DType dtype, int maxChunkBytes) {
        return Math.max(1, maxChunkBytes / dtype.size());
    }
}
