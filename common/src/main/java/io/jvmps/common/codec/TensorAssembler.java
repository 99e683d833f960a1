package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Function;

/**
 * Reassembles a stream of {@link TensorChunk}s into whole tensors, copying each chunk's bytes
 * once into a destination buffer supplied by the caller. Chunks of one tensor must arrive
 * contiguously and in ascending offset order, each repeating the first chunk's dtype, shape, step,
 * sender and tag; tensors follow one another (this is how {@link TensorChunker} emits them). Anything
 * else is a {@link ErrorCode#MALFORMED_FRAME}.
 *
 * <p>One assembler serves one stream; not thread-safe. It does not release chunks: the caller does,
 * after {@link #accept(TensorChunk)} returns or throws.
 */
public final class TensorAssembler {

    /**
     * A tensor whose every chunk has arrived.
     *
     * @param key    the tensor's key
     * @param step   step from its first chunk
     * @param sender sender from its first chunk
     * @param tag    tag from its first chunk
     * @param dtype  element type
     * @param shape  its shape
     * @param data   the destination buffer, position 0, limit = byte size, little-endian
     */
    public record Assembled(long key, long step, int sender, long tag, DType dtype, long[] shape, ByteBuffer data) {
    }

    private final long maxTensorBytes;
    private final Function<TensorChunk, ByteBuffer> destinations;
    private TensorChunk head;
    private ByteBuffer current;
    private long nextOffset;

    /**
     * @param maxTensorBytes largest accepted tensor in bytes; larger ones fail with
     *                       {@link ErrorCode#PAYLOAD_TOO_LARGE} before any allocation
     * @param destinations   given the first chunk of a tensor, returns a buffer with at least the
     *                       tensor's byte size remaining (may validate and throw {@link PsException})
     */
    public TensorAssembler(long maxTensorBytes, Function<TensorChunk, ByteBuffer> destinations) {
        this.maxTensorBytes = maxTensorBytes;
        this.destinations = destinations;
    }

    /**
     * @param chunk the next chunk of the stream; not released here
     * @return the completed tensor if this chunk finished one, otherwise null
     */
    public Assembled accept(TensorChunk chunk) {
        if (head == null) {
            begin(chunk);
        } else if (chunk.key() != head.key() || chunk.offset() != nextOffset
                || chunk.dtype() != head.dtype() || !Arrays.equals(chunk.shape(), head.shape())
                || chunk.step() != head.step() || chunk.sender() != head.sender() || chunk.tag() != head.tag()) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "chunk " + chunk + " does not continue key " + head.key()
                    + " at element " + nextOffset);
        }
        chunk.data().getBytes(chunk.data().readerIndex(), current.duplicate().position(current.position())
                .limit(current.position() + chunk.data().readableBytes()));
        current.position(current.position() + chunk.data().readableBytes());
        nextOffset += chunk.count();
        if (nextOffset < head.totalElements()) {
            return null;
        }
        ByteBuffer done = current.flip().order(ByteOrder.LITTLE_ENDIAN);
        Assembled result = new Assembled(head.key(), head.step(), head.sender(), head.tag(), head.dtype(),
                head.shape(), done);
        head = null;
        current = null;
        return result;
    }

    /** @return true when no tensor is half-received (a stream may end only then) */
    public boolean idle() {
        return head == null;
    }

    /** @return the key of the half-received tensor, for error messages; -1 when idle */
    public long pendingKey() {
        return head == null ? -1 : head.key();
    }

    private void begin(TensorChunk chunk) {
        if (chunk.offset() != 0) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "first chunk of key " + chunk.key()
                    + " starts at element " + chunk.offset() + ", expected 0");
        }
        long elements = chunk.totalElements();
        boolean overflows = elements > Long.MAX_VALUE / chunk.dtype().size();
        long bytes = overflows ? Long.MAX_VALUE : elements * chunk.dtype().size();
        if (overflows || bytes > maxTensorBytes) {
            throw new PsException(ErrorCode.PAYLOAD_TOO_LARGE, "tensor of key " + chunk.key() + " has "
                    + (overflows ? elements + " " + chunk.dtype() + " elements (over 2^63 bytes)" : bytes + " bytes")
                    + ", above the cap of " + maxTensorBytes + " bytes");
        }
        ByteBuffer dest = destinations.apply(chunk);
        if (dest.remaining() < bytes) {
            throw new IllegalStateException("destination for key " + chunk.key() + " has " + dest.remaining()
                    + " bytes, needs " + bytes);
        }
        head = new TensorChunk(chunk.dtype(), chunk.key(), chunk.step(), chunk.sender(), chunk.tag(), chunk.shape(),
                0, 0, io.netty.buffer.Unpooled.EMPTY_BUFFER);
        current = dest.slice(dest.position(), (int) bytes).order(ByteOrder.LITTLE_ENDIAN);
        nextOffset = 0;
    }
}
