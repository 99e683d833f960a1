package io.jvmps.server.support;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.SliceRequest;
import io.jvmps.common.codec.SliceRequestCodec;
import io.jvmps.common.codec.TensorAssembler;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.codec.TensorChunker;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Client-side frame building and reading for tests, the way a worker does it. */
public final class TestTensors {
    /** Allocator and wrapper used for test frames. */
    public static final NettyDataBufferFactory FACTORY = new NettyDataBufferFactory(PooledByteBufAllocator.DEFAULT);
    private static final ByteBufAllocator ALLOC = FACTORY.getByteBufAllocator();

    private TestTensors() {
    }

    /** A tensor to send. */
    public record Tensor(long key, float[] values) {
    }

    /** @return a tensor */
    public static Tensor tensor(long key, float... values) {
        return new Tensor(key, values);
    }

    /** @return the frames of the tensors, 1 MiB chunks, untagged */
    public static List<DataBuffer> frames(long step, int sender, Tensor... tensors) {
        return frames(step, sender, 0, tensors);
    }

    /** @return the frames of the tensors, 1 MiB chunks, with a push tag */
    public static List<DataBuffer> frames(long step, int sender, long tag, Tensor... tensors) {
        return shaped(step, sender, tag, null, tensors);
    }

    /** @return the frames of the tensors, each announcing {@code shape} (null: its 1-D length) */
    public static List<DataBuffer> shaped(long step, int sender, long tag, long[] shape, Tensor... tensors) {
        List<DataBuffer> out = new ArrayList<>();
        for (Tensor t : tensors) {
            ByteBuf data = ALLOC.buffer(t.values().length * 4);
            for (float f : t.values()) {
                data.writeFloatLE(f);
            }
            for (TensorChunk chunk : TensorChunker.split(DType.FLOAT32, t.key(), step, sender, tag,
                    shape != null ? shape : new long[] {t.values().length}, data, TensorChunker.DEFAULT_CHUNK_BYTES)) {
                out.add(FACTORY.wrap(TensorChunkCodec.encode(ALLOC, chunk)));
                chunk.release();
            }
            data.release();
        }
        return out;
    }

    /** @return the buffers' bytes back to back in one payload, as a worker packs small slices; releases them */
    public static DataBuffer packed(List<DataBuffer> buffers) {
        ByteBuf payload = ALLOC.buffer();
        for (DataBuffer buffer : buffers) {
            ByteBuf bytes = ((org.springframework.core.io.buffer.NettyDataBuffer) buffer).getNativeBuffer();
            payload.writeBytes(bytes, bytes.readerIndex(), bytes.readableBytes());
            DataBufferUtils.release(buffer);
        }
        return FACTORY.wrap(payload);
    }

    /** @return a pull request frame */
    public static DataBuffer request(long minVersion, int sender, long... keys) {
        return FACTORY.wrap(SliceRequestCodec.encode(ALLOC, new SliceRequest(minVersion, sender, keys)));
    }

    /** @return a buffer of raw bytes */
    public static DataBuffer raw(byte[] bytes) {
        return FACTORY.wrap(bytes);
    }

    /** A pulled slice. */
    public record Pulled(long version, float[] values, int chunks) {
    }

    /**
     * Reassembles pulled payloads (each one or more frames), releasing every buffer.
     *
     * @return slices by key, in arrival order
     */
    public static Map<Long, Pulled> assemble(List<DataBuffer> frames) {
        Map<Long, Pulled> out = new LinkedHashMap<>();
        Map<Long, Integer> chunks = new LinkedHashMap<>();
        TensorAssembler assembler = new TensorAssembler(Integer.MAX_VALUE,
                first -> ByteBuffer.allocate((int) first.totalElements() * 4));
        for (DataBuffer frame : frames) {
            try {
                for (TensorChunk chunk : TensorChunkCodec.decodeAll(((NettyDataBuffer) frame).getNativeBuffer())) {
                    try {
                        chunks.merge(chunk.key(), 1, Integer::sum);
                        TensorAssembler.Assembled done = assembler.accept(chunk);
                        if (done != null) {
                            float[] values = new float[(int) (done.data().remaining() / 4)];
                            done.data().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(values);
                            out.put(done.key(), new Pulled(done.step(), values, chunks.get(done.key())));
                        }
                    } finally {
                        chunk.release();
                    }
                }
            } finally {
                DataBufferUtils.release(frame);
            }
        }
        return out;
    }
}
