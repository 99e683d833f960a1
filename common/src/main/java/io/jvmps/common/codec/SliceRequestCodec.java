package io.jvmps.common.codec;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Encodes and decodes {@link SliceRequest} frames. Stateless and thread-safe.
 *
 * <p>Layout, little-endian: magic 0x51525350 ("PSRQ") int, version byte (1), 3 reserved bytes,
 * minVersion long, sender int, key count int (at most {@link #MAX_KEYS}), then the keys as longs.
 */
public final class SliceRequestCodec {
    /** Frame magic, "PSRQ" read as a little-endian int. */
    public static final int MAGIC = 0x51525350;
    /** Largest number of keys in one request. */
    public static final int MAX_KEYS = 1 << 20;
    private static final int HEADER = 24;

    private SliceRequestCodec() {
    }

    /**
     * @param alloc   allocator
     * @param request the request
     * @return a frame owning one reference
     */
    public static ByteBuf encode(ByteBufAllocator alloc, SliceRequest request) {
        ByteBuf buf = alloc.buffer(HEADER + 8 * request.keys().length);
        buf.writeIntLE(MAGIC).writeByte(1).writeZero(3)
                .writeLongLE(request.minVersion())
                .writeIntLE(request.sender())
                .writeIntLE(request.keys().length);
        for (long k : request.keys()) {
            buf.writeLongLE(k);
        }
        return buf;
    }

    /**
     * @param frame the frame; not released
     * @return the request
     * @throws PsException with {@link ErrorCode#MALFORMED_FRAME} naming what is wrong
     */
    public static SliceRequest decode(ByteBuf frame) {
        int start = frame.readerIndex();
        int readable = frame.readableBytes();
        if (readable < HEADER || frame.getIntLE(start) != MAGIC) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "not a slice request frame (" + readable + " bytes)");
        }
        if (frame.getByte(start + 4) != 1) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "unsupported slice request version " + frame.getByte(start + 4));
        }
        long minVersion = frame.getLongLE(start + 8);
        int sender = frame.getIntLE(start + 16);
        int n = frame.getIntLE(start + 20);
        if (n < 0 || n > MAX_KEYS || readable != HEADER + 8L * n) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "slice request announces " + n + " keys but carries "
                    + (readable - HEADER) + " key bytes");
        }
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = frame.getLongLE(start + HEADER + 8 * i);
        }
        return new SliceRequest(minVersion, sender, keys);
    }
}
