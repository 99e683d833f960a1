package io.jvmps.server.api;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.PayloadPacking;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.SliceSnapshot;
import org.springframework.core.io.buffer.DataBuffer;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Streams slices to a puller as {@link TensorChunk} frames (step = the slice's version, shape =
 * [length], chunks of at most {@code chunkBytes}), in the given order. Small slices are packed into one
 * payload ({@link PayloadPacking}). Each slice is copied once, under its lock, when its turn comes; frames
 * are zero-copy slices of that copy. Thread-safe.
 */
public final class SliceStreamer {
    private final Frames frames;
    private final int elementsPerChunk;
    private final int chunkBytes;
    private final IntSupplier serverRank;

    /**
     * @param frames     frame wrapping and allocation
     * @param chunkBytes data bytes per chunk
     * @param serverRank this server's rank, written as the chunks' sender
     */
    public SliceStreamer(Frames frames, int chunkBytes, IntSupplier serverRank) {
        this.frames = frames;
        this.elementsPerChunk = Math.max(1, chunkBytes / DType.FLOAT32.size());
        this.chunkBytes = elementsPerChunk * DType.FLOAT32.size();
        this.serverRank = serverRank;
    }

    /**
     * @param slices the slices, in answer order
     * @return their frames; the subscriber owns (and RSocket releases) each buffer
     */
    public Flux<DataBuffer> stream(List<DenseSlice> slices) {
        return Flux.fromIterable(PayloadPacking.groups(slices, slice -> 4L * slice.length(), chunkBytes))
                .concatMap(group -> group.size() > 1
                        ? Mono.fromCallable(() -> packed(group))
                        : Flux.using(() -> group.get(0).snapshot(frames.allocator()), this::chunks, SliceSnapshot::release),
                        1);
    }

    /** @return one payload of several small slices, each copied under its lock in turn */
    private DataBuffer packed(List<DenseSlice> group) {
        int rank = serverRank.getAsInt();
        List<SliceSnapshot> snapshots = new ArrayList<>(group.size());
        List<TensorChunk> chunks = new ArrayList<>(group.size());
        try {
            for (DenseSlice slice : group) {
                SliceSnapshot snap = slice.snapshot(frames.allocator());
                snapshots.add(snap);
                chunks.add(new TensorChunk(DType.FLOAT32, snap.key(), snap.version(), rank, 0, new long[] {snap.length()},
                        0, snap.length(), snap.data().retainedSlice()));
            }
            return frames.wrap(TensorChunkCodec.encodeAll(frames.allocator(), chunks));
        } finally {
            chunks.forEach(TensorChunk::release);
            snapshots.forEach(SliceSnapshot::release);
        }
    }

    private Flux<DataBuffer> chunks(SliceSnapshot snap) {
        int rank = serverRank.getAsInt();
        long[] shape = {snap.length()};
        return Flux.generate(() -> 0, (Integer offset, SynchronousSink<DataBuffer> sink) -> {
            int count = Math.min(elementsPerChunk, snap.length() - offset);
            TensorChunk chunk = new TensorChunk(DType.FLOAT32, snap.key(), snap.version(), rank, 0, shape, offset, count,
                    snap.data().retainedSlice(offset * 4, count * 4));
            try {
                sink.next(frames.wrap(TensorChunkCodec.encode(frames.allocator(), chunk)));
            } finally {
                chunk.release();
            }
            int next = offset + count;
            if (next >= snap.length()) {
                sink.complete();
            }
            return next;
        });
    }
}
