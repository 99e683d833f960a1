package io.jvmps.client.allreduce;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.codec.TensorChunker;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * W ring links in one JVM: a send encodes real frames (tiny chunks, to exercise reassembly), decodes
 * them and drops them into the right neighbour's mailbox, as the RSocket controller would.
 */
public final class InMemoryRing {
    private final List<AllReduceMailbox> mailboxes = new ArrayList<>();
    private final Duration timeout;
    private final int chunkBytes;

    /**
     * @param workers    ring size
     * @param timeout    receive deadline
     * @param chunkBytes frame size (small values split segments into several chunks)
     */
    public InMemoryRing(int workers, Duration timeout, int chunkBytes) {
        for (int w = 0; w < workers; w++) {
            mailboxes.add(new AllReduceMailbox());
        }
        this.timeout = timeout;
        this.chunkBytes = chunkBytes;
    }

    /** @return the mailbox of a rank */
    public AllReduceMailbox mailbox(int rank) {
        return mailboxes.get(rank);
    }

    /** @return the link of a rank */
    public RingLink link(int rank) {
        int size = mailboxes.size();
        return new RingLink() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public Sent send(RingKey key, int segment, float[] data, int from, int length) {
                ByteBuf values = Unpooled.buffer(length * 4);
                for (int i = from; i < from + length; i++) {
                    values.writeFloatLE(data[i]);
                }
                AllReduceMailbox target = mailboxes.get((rank + 1) % size);
                for (TensorChunk chunk : TensorChunker.split(DType.FLOAT32, segment, key.step(), rank, key.tag(),
                        new long[] {length}, values, chunkBytes)) {
                    ByteBuf frame = TensorChunkCodec.encode(ByteBufAllocator.DEFAULT, chunk);
                    chunk.release();
                    TensorChunk decoded = TensorChunkCodec.decode(frame);
                    try {
                        target.deliver(decoded);
                    } finally {
                        decoded.release();
                        frame.release();
                    }
                }
                values.release();
                return () -> {
                };
            }

            @Override
            public float[] receive(RingKey key, int segment, int length) {
                return mailboxes.get(rank).take(key, segment, length, timeout,
                        "worker " + Math.floorMod(rank - 1, size));
            }
        };
    }
}
