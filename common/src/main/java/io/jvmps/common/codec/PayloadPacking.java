package io.jvmps.common.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Decides which consecutive slices travel together in one payload ({@link TensorChunkCodec#encodeAll}).
 * Slices of at most {@code chunkBytes} data bytes are packed in order while the payload's frames (headers
 * included) stay within the size of one full rank-1 chunk frame, so a packed payload is never larger than
 * a payload of one chunk and fits every inbound cap that fits one chunk. A larger slice forms a group of
 * its own, which the sender cuts into chunks as before. Both ends pack the same way: a worker its push
 * and init streams, a server its pull answers. Stateless and thread-safe.
 */
public final class PayloadPacking {
    /** Bytes of a rank-1 frame's header and shape: what each packed slice adds besides its data. */
    public static final int RANK1_HEADER_BYTES = TensorChunkCodec.FIXED_HEADER_BYTES + 8;

    private PayloadPacking() {
    }

    /**
     * @param items      slices in stream order
     * @param dataBytes  a slice's data bytes
     * @param chunkBytes data bytes of one chunk, &gt;= 1
     * @return the items cut into consecutive groups, in order; each group of two or more travels as one
     *         payload, a group of one as one payload per chunk
     */
    public static <T> List<List<T>> groups(List<T> items, ToLongFunction<T> dataBytes, int chunkBytes) {
        long room = (long) chunkBytes + RANK1_HEADER_BYTES;
        List<List<T>> groups = new ArrayList<>();
        List<T> current = new ArrayList<>();
        long used = 0;
        for (T item : items) {
            long bytes = dataBytes.applyAsLong(item) + RANK1_HEADER_BYTES;
            if (!current.isEmpty() && used + bytes > room) {
                groups.add(current);
                current = new ArrayList<>();
                used = 0;
            }
            current.add(item);
            used += bytes;
        }
        if (!current.isEmpty()) {
            groups.add(current);
        }
        return groups;
    }

    /**
     * @param groups     groups from {@link #groups}
     * @param dataBytes  a slice's data bytes
     * @param chunkBytes data bytes of one chunk, &gt;= 1 (cut in whole float32 elements, at least one per chunk)
     * @return how many payloads the groups travel as: one per group of two or more, one per chunk of a lone slice
     *         (at least one, also for an empty slice)
     */
    public static <T> long payloadCount(List<List<T>> groups, ToLongFunction<T> dataBytes, int chunkBytes) {
        long count = 0;
        for (List<T> group : groups) {
            count += group.size() > 1 ? 1
                    : TensorChunker.chunkCount(DType.FLOAT32, dataBytes.applyAsLong(group.get(0)) / DType.FLOAT32.size(),
                            chunkBytes);
        }
        return count;
    }

}
