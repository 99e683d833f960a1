package io.jvmps.server.store;

import io.netty.buffer.ByteBuf;

/**
 * A copy of one slice's values at one version, as little-endian float32 bytes. Owns one reference
 * to {@code data}; whoever holds the snapshot releases it.
 *
 * @param key     slice key
 * @param version version of the copied values
 * @param length  number of elements
 * @param data    {@code 4 * length} readable bytes
 */
public record SliceSnapshot(long key, long version, int length, ByteBuf data) {
    /** Releases the copy. */
    public void release() {
        data.release();
    }
}
