package io.jvmps.common.codec;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCounted;

import java.util.Arrays;

/**
 * One frame of tensor data: a contiguous run of {@code count} elements starting at element
 * {@code offset} of a tensor of the given {@code shape} (row-major, C order), identified by
 * {@code key}. A tensor travels as one or more chunks in ascending offset order; a tensor with no
 * elements travels as one chunk with {@code count == 0}.
 *
 * <p>The chunk owns one reference to {@code data} (little-endian element bytes, exactly
 * {@code count * dtype.size()} readable bytes); whoever holds the chunk must {@link #release()} it.
 * Not thread-safe; hand a chunk from thread to thread, do not share it.
 *
 * @param dtype  element type
 * @param key    the tensor's key (a {@code SliceKey} value for dense slices)
 * @param step   training step the data belongs to; {@code -1} for initial values
 * @param sender rank of the sending node
 * @param tag    free 64-bit tag (push sequence number); 0 when unused
 * @param shape  the whole tensor's shape, each dimension &gt;= 0
 * @param offset index of the first element of this chunk within the whole tensor
 * @param count  number of elements in this chunk
 * @param data   the element bytes
 */
public record TensorChunk(DType dtype, long key, long step, int sender, long tag, long[] shape,
                          long offset, int count, ByteBuf data) implements ReferenceCounted {

    /** @return product of the shape: the number of elements of the whole tensor */
    public long totalElements() {
        return elementCount(shape);
    }

    /** @return true when this chunk ends the tensor */
    public boolean isLast() {
        return offset + count == totalElements();
    }

    /**
     * @param shape a shape
     * @return the product of its dimensions (1 for a scalar, rank 0)
     */
    public static long elementCount(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    @Override
    public int refCnt() {
        return data.refCnt();
    }

    @Override
    public TensorChunk retain() {
        data.retain();
        return this;
    }

    @Override
    public TensorChunk retain(int increment) {
        data.retain(increment);
        return this;
    }

    @Override
    public TensorChunk touch() {
        data.touch();
        return this;
    }

    @Override
    public TensorChunk touch(Object hint) {
        data.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return data.release();
    }

    @Override
    public boolean release(int decrement) {
        return data.release(decrement);
    }

    @Override
    public String toString() {
        return "TensorChunk[key=" + key + ", step=" + step + ", sender=" + sender + ", dtype=" + dtype
                + ", shape=" + Arrays.toString(shape) + ", offset=" + offset + ", count=" + count + "]";
    }
}
