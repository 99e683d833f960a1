package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Encodes and decodes {@link TensorChunk} frames. Stateless and thread-safe.
 *
 * <p>Layout, little-endian:
 * <pre>
 * offset  size      field
 * 0       4         magic 0x43545350 ("PSTC")
 * 4       1         version (1)
 * 5       1         dtype code
 * 6       2         rank r (0..8)
 * 8       8         key
 * 16      8         step
 * 24      4         sender
 * 28      4         count (elements in this chunk)
 * 32      8         offset (elements)
 * 40      8         tag
 * 48      8*r       shape
 * 48+8r   count*w   element bytes
 * </pre>
 * Encoding is zero-copy: the result is a composite of a freshly written header and a retained
 * slice of the chunk's data. Decoding copies nothing either: the decoded chunk's data is a
 * retained slice of the frame; consumers copy once, into their own storage.
 *
 * <p>A payload may pack several frames back to back ({@link #encodeAll}, {@link #decodeAll}): each
 * frame's length follows from its header, so a stream of small slices travels as one payload
 * instead of one payload per slice (one RSocket frame, and for a request-channel no wait for the
 * responder's credit before the rest). {@link #decode} accepts exactly one frame.
 */
public final class TensorChunkCodec {
    /** Frame magic, "PSTC" read as a little-endian int. */
    public static final int MAGIC = 0x43545350;
    /** Current frame version. */
    public static final byte VERSION = 1;
    /** Largest accepted tensor rank. */
    public static final int MAX_RANK = 8;
    /** Header bytes before the shape. */
    public static final int FIXED_HEADER_BYTES = 48;

    private TensorChunkCodec() {
    }

    /**
     * @param alloc allocator for the header
     * @param chunk the chunk; its reference count is unchanged (the frame holds its own)
     * @return a frame owning one reference; the caller releases it (RSocket does after sending)
     */
    public static ByteBuf encode(ByteBufAllocator alloc, TensorChunk chunk) {
        int rank = chunk.shape().length;
        int expectedBytes = Math.multiplyExact(chunk.count(), chunk.dtype().size());
        if (rank > MAX_RANK) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "tensor rank " + rank + " exceeds " + MAX_RANK);
        }
        if (chunk.data().readableBytes() != expectedBytes) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "chunk of key " + chunk.key() + " has "
                    + chunk.data().readableBytes() + " data bytes, expected " + expectedBytes);
        }
        ByteBuf header = alloc.buffer(FIXED_HEADER_BYTES + 8 * rank);
        header.writeIntLE(MAGIC)
                .writeByte(VERSION)
                .writeByte(chunk.dtype().code())
                .writeShortLE(rank)
                .writeLongLE(chunk.key())
                .writeLongLE(chunk.step())
                .writeIntLE(chunk.sender())
                .writeIntLE(chunk.count())
                .writeLongLE(chunk.offset())
                .writeLongLE(chunk.tag());
        for (long d : chunk.shape()) {
            header.writeLongLE(d);
        }
        CompositeByteBuf frame = alloc.compositeBuffer(2);
        frame.addComponent(true, header);
        frame.addComponent(true, chunk.data().retainedSlice());
        return frame;
    }

    /**
     * @param chunk a chunk
     * @return the bytes {@link #encode} makes of it (header, shape and data)
     */
    public static long encodedBytes(TensorChunk chunk) {
        return FIXED_HEADER_BYTES + 8L * chunk.shape().length + (long) chunk.count() * chunk.dtype().size();
    }

    /**
     * @param alloc  allocator for the headers
     * @param chunks the chunks, in payload order, at least one; their reference counts are unchanged
     * @return one payload of their frames back to back, owning one reference; the caller releases it
     */
    public static ByteBuf encodeAll(ByteBufAllocator alloc, java.util.List<TensorChunk> chunks) {
        if (chunks.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "a payload packs at least one chunk");
        }
        if (chunks.size() == 1) {
            return encode(alloc, chunks.get(0));
        }
        CompositeByteBuf payload = alloc.compositeBuffer(chunks.size());
        try {
            for (TensorChunk chunk : chunks) {
                payload.addComponent(true, encode(alloc, chunk));
            }
            return payload;
        } catch (RuntimeException e) {
            payload.release();
            throw e;
        }
    }

    /**
     * @param payload one or more frames back to back; its reference count is unchanged
     * @return the chunks in payload order, each owning one reference to a slice of {@code payload}
     * @throws PsException with {@link ErrorCode#MALFORMED_FRAME} naming what is wrong (and which frame);
     *                     no chunk is left retained then
     */
    public static java.util.List<TensorChunk> decodeAll(ByteBuf payload) {
        java.util.List<TensorChunk> chunks = new java.util.ArrayList<>(2);
        int at = payload.readerIndex();
        int end = payload.writerIndex();
        try {
            do {
                TensorChunk chunk;
                try {
                    chunk = decodeAt(payload, at, end - at, false);
                } catch (PsException e) {
                    throw chunks.isEmpty() ? e : malformed("frame " + (chunks.size() + 1) + " of the payload: " + e.detail());
                }
                chunks.add(chunk);
                at += (int) encodedBytes(chunk);
            } while (at < end);
            return chunks;
        } catch (RuntimeException e) {
            chunks.forEach(TensorChunk::release);
            throw e;
        }
    }

    /**
     * The sender rank of every frame of a payload, in order (a server binds every request on a connection to the
     * worker that opened it).
     *
     * @param payload one or more frames back to back; its reference count is unchanged
     * @throws PsException MALFORMED_FRAME as {@link #decodeAll} would
     */
    public static int[] sendersOf(ByteBuf payload) {
        java.util.List<TensorChunk> chunks = decodeAll(payload);
        int[] senders = new int[chunks.size()];
        for (int i = 0; i < senders.length; i++) {
            senders[i] = chunks.get(i).sender();
            chunks.get(i).release();
        }
        return senders;
    }

    /**
     * @param frame a frame; its reference count is unchanged, the returned chunk holds its own
     * @return the decoded chunk, owning one reference to a slice of {@code frame}
     * @throws PsException with {@link ErrorCode#MALFORMED_FRAME} naming what is wrong
     */
    public static TensorChunk decode(ByteBuf frame) {
        return decodeAt(frame, frame.readerIndex(), frame.readableBytes(), true);
    }

    /**
     * @param exact true: the frame fills all {@code readable} bytes; false: it may be followed by more
     *              (the next frame of a packed payload), and only its announced length is read
     */
    private static TensorChunk decodeAt(ByteBuf frame, int start, int readable, boolean exact) {
        if (readable < FIXED_HEADER_BYTES) {
            throw malformed("frame has " + readable + " bytes, shorter than the " + FIXED_HEADER_BYTES + "-byte header");
        }
        int magic = frame.getIntLE(start);
        if (magic != MAGIC) {
            throw malformed(String.format("bad magic 0x%08x, expected 0x%08x (not a tensor frame)", magic, MAGIC));
        }
        byte version = frame.getByte(start + 4);
        if (version != VERSION) {
            throw malformed("unsupported frame version " + version + ", this node speaks " + VERSION);
        }
        DType dtype;
        try {
            dtype = DType.fromCode(frame.getByte(start + 5));
        } catch (IllegalArgumentException e) {
            throw malformed(e.getMessage());
        }
        int rank = frame.getShortLE(start + 6);
        if (rank < 0 || rank > MAX_RANK) {
            throw malformed("rank " + rank + " outside 0.." + MAX_RANK);
        }
        long key = frame.getLongLE(start + 8);
        long step = frame.getLongLE(start + 16);
        int sender = frame.getIntLE(start + 24);
        int count = frame.getIntLE(start + 28);
        long offset = frame.getLongLE(start + 32);
        long tag = frame.getLongLE(start + 40);
        int headerBytes = FIXED_HEADER_BYTES + 8 * rank;
        if (readable < headerBytes) {
            throw malformed("frame has " + readable + " bytes, shorter than its " + headerBytes + "-byte header");
        }
        long[] shape = new long[rank];
        for (int i = 0; i < rank; i++) {
            shape[i] = frame.getLongLE(start + FIXED_HEADER_BYTES + 8 * i);
            if (shape[i] < 0) {
                throw malformed("negative dimension " + shape[i] + " at axis " + i);
            }
        }
        long total;
        try {
            total = TensorChunk.elementCount(shape);
        } catch (ArithmeticException e) {
            throw malformed("shape overflows a 64-bit element count");
        }
        if (count < 0 || offset < 0 || offset > total - count) { // no overflow: total >= 0, count >= 0
            throw malformed("chunk [" + offset + ", " + offset + "+" + count + ") outside tensor of " + total + " elements");
        }
        long dataBytes = (long) count * dtype.size();
        if (exact ? readable - headerBytes != dataBytes : readable - headerBytes < dataBytes) {
            throw malformed("frame carries " + (readable - headerBytes) + " data bytes, header announces "
                    + count + " " + dtype + " elements = " + dataBytes + " bytes");
        }
        ByteBuf data = frame.retainedSlice(start + headerBytes, (int) dataBytes);
        return new TensorChunk(dtype, key, step, sender, tag, shape, offset, count, data);
    }

    private static PsException malformed(String detail) {
        return new PsException(ErrorCode.MALFORMED_FRAME, detail);
    }
}
