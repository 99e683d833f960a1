package io.jvmps.client.allreduce;

import io.jvmps.client.transport.ConnectionSettings;
import io.jvmps.client.transport.RoutedPayloads;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.codec.TensorChunker;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rsocket.core.RSocketClient;
import io.rsocket.exceptions.ApplicationErrorException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ring over RSocket: one connection to the right neighbour's AllReduce endpoint (a
 * {@link RingEndpoint}, or the stock worker's RSocket server), on which every segment chunk is a
 * request-response on {@value AllReduceRoutes#SEGMENT}; inbound segments come from this worker's
 * {@link AllReduceMailbox}. Outbound frames are encoded into unpooled heap buffers that RSocket releases.
 * Sending happens on Reactor threads; only the training thread waits, each wait with a deadline.
 */
public final class RSocketRingLink implements RingLink, AutoCloseable {
    private static final String OCTETS = "application/octet-stream";

    private final int rank;
    private final int size;
    private final String right;
    private final String left;
    private final RSocketClient client;
    private final RoutedPayloads routed = new RoutedPayloads();
    private final AllReduceMailbox mailbox;
    private final Duration timeout;
    private final int chunkBytes;
    private final ByteBufAllocator alloc = new UnpooledByteBufAllocator(false);
    private final AtomicLong bytesSent = new AtomicLong();

    /**
     * @param workers    every worker of the job, by rank, with its AllReduce endpoint
     * @param rank       this worker's rank
     * @param mailbox    where this worker's inbound segments land
     * @param settings   the cluster secret and TCP or TLS to connect with
     * @param timeout    deadline of one send acknowledgement or one receive
     * @param chunkBytes data bytes per frame
     */
    public RSocketRingLink(List<NodeInfo> workers, int rank, AllReduceMailbox mailbox, ConnectionSettings settings,
                           Duration timeout, int chunkBytes) {
        this.rank = rank;
        this.size = workers.size();
        NodeInfo next = workers.get((rank + 1) % size);
        this.right = describe(next);
        this.left = describe(workers.get(Math.floorMod(rank - 1, size)));
        this.client = size == 1 ? null : settings.connect(next.host(), next.rsocketPort(), OCTETS);
        this.mailbox = mailbox;
        this.timeout = timeout;
        this.chunkBytes = chunkBytes;
    }

    private static String describe(NodeInfo worker) {
        return "worker " + worker.rank() + " (" + worker.rsocketEndpoint() + ")";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** @return float32 bytes sent to the right neighbour so far */
    public long bytesSent() {
        return bytesSent.get();
    }

    @Override
    public Sent send(RingKey key, int segment, float[] data, int from, int length) {
        List<ByteBuf> frames = frames(key, segment, data, from, length);
        bytesSent.addAndGet(length * 4L);
        CompletableFuture<Void> acked = Flux.fromIterable(frames)
                .concatMap(frame -> client.requestResponse(Mono.just(routed.first(AllReduceRoutes.SEGMENT, frame)))
                        .doOnNext(answer -> answer.release()))
                .then()
                .toFuture();
        return () -> awaitAck(acked, key);
    }

    private List<ByteBuf> frames(RingKey key, int segment, float[] data, int from, int length) {
        ByteBuf values = alloc.buffer(length * 4, length * 4);
        for (int i = from; i < from + length; i++) {
            values.writeFloatLE(data[i]);
        }
        List<ByteBuf> frames = new ArrayList<>();
        try {
            for (TensorChunk chunk : TensorChunker.split(DType.FLOAT32, segment, key.step(), rank, key.tag(),
                    new long[] {length}, values, chunkBytes)) {
                try {
                    frames.add(TensorChunkCodec.encode(alloc, chunk));
                } finally {
                    chunk.release();
                }
            }
        } finally {
            values.release();
        }
        return frames;
    }

    private void awaitAck(CompletableFuture<Void> acked, RingKey key) {
        try {
            acked.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            acked.cancel(true);
            throw new PsException(ErrorCode.TIMEOUT, right + " did not acknowledge the allreduce segment of " + key
                    + " within " + timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PsException(ErrorCode.INTERNAL, "interrupted sending to " + right);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ApplicationErrorException remote) {
                PsException ps = PsException.fromRemoteMessage(remote.getMessage());
                throw new PsException(ps.code(), right + " rejected the allreduce segment of " + key + ": "
                        + ps.detail());
            }
            throw new PsException(ErrorCode.NOT_READY, "cannot send the allreduce segment of " + key + " to " + right
                    + ": " + cause);
        }
    }

    @Override
    public float[] receive(RingKey key, int segment, int length) {
        return mailbox.take(key, segment, length, timeout, left);
    }

    @Override
    public void close() {
        if (client != null) {
            client.dispose();
        }
    }
}
