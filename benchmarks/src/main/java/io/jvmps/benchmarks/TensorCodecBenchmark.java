package io.jvmps.benchmarks;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Encoding and decoding one 1 MiB tensor chunk frame (the size pushes and pulls are cut into), with pooled
 * direct buffers as on the wire. Both are zero-copy, so the time is per frame, not per byte; the copy into a
 * slice happens later, in the receiver.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TensorCodecBenchmark {
    private static final int ELEMENTS = 1 << 18;
    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private ByteBuf data;
    private ByteBuf frame;

    @Setup
    public void setUp() {
        data = alloc.directBuffer(ELEMENTS * 4);
        data.writerIndex(ELEMENTS * 4);
        frame = TensorChunkCodec.encode(alloc, chunk());
    }

    @TearDown
    public void tearDown() {
        frame.release();
        data.release();
    }

    private TensorChunk chunk() {
        return new TensorChunk(DType.FLOAT32, 7, 3, 0, 11, new long[] {ELEMENTS}, 0, ELEMENTS, data.retainedSlice());
    }

    @Benchmark
    public int encode() {
        TensorChunk chunk = chunk();
        ByteBuf encoded = TensorChunkCodec.encode(alloc, chunk);
        int size = encoded.readableBytes();
        encoded.release();
        chunk.release();
        return size;
    }

    @Benchmark
    public long decode() {
        TensorChunk chunk = TensorChunkCodec.decode(frame);
        long key = chunk.key() + chunk.count();
        chunk.release();
        return key;
    }
}
