package io.jvmps.server.api;

import io.jvmps.common.codec.SliceRequest;
import io.jvmps.common.codec.SliceRequestCodec;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.util.function.Function;

/**
 * Converts between Spring {@link DataBuffer}s and the binary frames of the common codec, enforcing
 * the inbound payload cap. Every decode releases the buffer it was given, also when it throws.
 * Thread-safe.
 */
public final class Frames {
    private final NettyDataBufferFactory factory;
    private final int maxPayloadBytes;

    /**
     * @param factory         wraps outbound frames (its allocator also allocates them)
     * @param maxPayloadBytes largest accepted inbound frame ({@code ps.transport.max-inbound-payload-bytes})
     */
    public Frames(NettyDataBufferFactory factory, int maxPayloadBytes) {
        this.factory = factory;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** @return the allocator for outbound frames and snapshots */
    public ByteBufAllocator allocator() {
        return factory.getByteBufAllocator();
    }

    /**
     * @param buffer an inbound payload of one or more tensor frames back to back; released here
     * @return the chunks in payload order, each owning its own reference (the caller releases them)
     */
    public java.util.List<TensorChunk> decodeChunks(DataBuffer buffer) {
        return decode(buffer, TensorChunkCodec::decodeAll);
    }

    /**
     * @param buffer an inbound pull request frame; released here
     * @return the request
     */
    public SliceRequest decodeRequest(DataBuffer buffer) {
        return decode(buffer, SliceRequestCodec::decode);
    }

    /**
     * @param frame an outbound frame; ownership passes to the returned buffer
     * @return the frame as a data buffer
     */
    public DataBuffer wrap(ByteBuf frame) {
        return factory.wrap(frame);
    }

    /**
     * @param buffer an inbound frame; released here, also when decoding throws
     * @param codec  decodes the frame (must not keep it)
     * @return what the codec made of it
     */
    public <T> T decode(DataBuffer buffer, Function<ByteBuf, T> codec) {
        try {
            int size = buffer.readableByteCount();
            if (size > maxPayloadBytes) {
                throw new PsException(ErrorCode.PAYLOAD_TOO_LARGE, "frame of " + size + " bytes exceeds the inbound cap of "
                        + maxPayloadBytes + " bytes (ps.transport.max-inbound-payload-bytes); send chunks of at most 1 MiB");
            }
            return codec.apply(nativeView(buffer));
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    private static ByteBuf nativeView(DataBuffer buffer) {
        if (buffer instanceof NettyDataBuffer netty) {
            return netty.getNativeBuffer();
        }
        byte[] bytes = new byte[buffer.readableByteCount()];
        buffer.read(bytes);
        return Unpooled.wrappedBuffer(bytes);
    }
}
