package io.jvmps.server.api;

import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.PsException;
import io.jvmps.server.monitor.ServerMetrics;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SynchronousSink;

import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Reads the inbound payloads of an init or push channel (each one or more tensor frames back to back)
 * into validated tensors. Every buffer is released exactly once: decoded ones right away, undelivered
 * ones through the discard hook.
 *
 * <p>A frame that fails validation ({@link PsException}) does not cut the channel: the rest of the
 * requester's frames are read and released unprocessed, and the error is raised once the inbound
 * stream completes. The requester thus always gets exactly one answer after it finished sending
 * (an ack or an error), and RSocket never has to cancel a half-read inbound stream. A stream that
 * sends no frame for the idle timeout (before the first, between two, before completing) is cancelled
 * and answered with {@code TIMEOUT} (or with the error of a frame it sent before, if one was rejected);
 * what it sent is dropped. Thread-safe (each read has its own
 * {@link TensorReceiver}).
 */
public final class ChannelReader {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ChannelReader.class);
    private final Frames frames;
    private final long maxTensorBytes;
    private final ServerMetrics metrics;
    private final java.time.Duration idleTimeout;
    private final io.jvmps.server.store.MemoryBudget budget;

    /**
     * @param frames         frame decoding
     * @param maxTensorBytes largest tensor accepted
     * @param metrics        counts inbound bytes
     * @param idleTimeout    longest wait for the next frame or the end ({@code ps.server.stream-idle-timeout})
     * @param budget         bytes all streams may hold at once ({@code ps.server.max-inflight-bytes})
     */
    public ChannelReader(Frames frames, long maxTensorBytes, ServerMetrics metrics, java.time.Duration idleTimeout,
                         io.jvmps.server.store.MemoryBudget budget) {
        this.budget = budget;
        this.idleTimeout = idleTimeout;
        this.frames = frames;
        this.maxTensorBytes = maxTensorBytes;
        this.metrics = metrics;
    }

    /**
     * @param inbound        the channel's frames
     * @param expectedLength validates a tensor's first chunk and returns its required element count
     * @return every tensor of the channel, once it completed and all were valid
     */
    public Mono<List<ReceivedTensor>> read(Flux<DataBuffer> inbound, ToIntFunction<TensorChunk> expectedLength) {
        return read(inbound, expectedLength, ReceiveBuffers.FRESH);
    }

    /**
     * @param inbound        the channel's frames
     * @param expectedLength validates a tensor's first chunk and returns its required element count
     * @param buffers        the array each tensor is received into
     * @return every tensor of the channel, once it completed and all were valid
     */
    Mono<List<ReceivedTensor>> read(Flux<DataBuffer> inbound, ToIntFunction<TensorChunk> expectedLength,
                                    ReceiveBuffers buffers) {
        return read(inbound, expectedLength, buffers, null);
    }

    /**
     * @param onWhole takes each tensor as soon as it is whole and checked, owning its array from then on (per-slice
     *                application); a {@link PsException} it throws rejects the stream from there on, as an invalid
     *                frame would. Null: tensors are handed over only once the whole stream was valid.
     * @return every tensor of the channel (with {@code onWhole}: their arrays already handed over)
     */
    Mono<List<ReceivedTensor>> read(Flux<DataBuffer> inbound, ToIntFunction<TensorChunk> expectedLength,
                                    ReceiveBuffers buffers, java.util.function.Consumer<ReceivedTensor> onWhole) {
        return Mono.defer(() -> {
            TensorReceiver receiver = new TensorReceiver(maxTensorBytes, expectedLength, budget, buffers, onWhole);
            String peer = io.jvmps.common.security.PeerAddresses.current(); // the stall is reported on a timer thread
            PsException[] failure = new PsException[1];
            return inbound
                    .timeout(idleTimeout)
                    .onErrorMap(java.util.concurrent.TimeoutException.class,
                            e -> failure[0] != null ? failure[0] : stalled(receiver, peer)) // a rejected frame's reason wins
                    .doOnDiscard(DataBuffer.class, DataBufferUtils::release)
                    .handle((DataBuffer buffer, SynchronousSink<Void> sink) -> {
                        metrics.bytesIn(buffer.readableByteCount());
                        if (failure[0] != null) {
                            DataBufferUtils.release(buffer);
                            return;
                        }
                        try {
                            acceptAll(receiver, frames.decodeChunks(buffer));
                        } catch (PsException e) {
                            failure[0] = e;
                        }
                    })
                    .then(Mono.fromCallable(() -> {
                        if (failure[0] != null) {
                            throw failure[0];
                        }
                        return receiver.finish();
                    }))
                    .doFinally(signal -> {
                        receiver.discard(); // no-op once the tensors were handed over
                        receiver.releaseReservations();
                    });
        });
    }

    /** Hands each chunk of one payload to the receiver; all are released, also those after a rejected one. */
    private static void acceptAll(TensorReceiver receiver, List<TensorChunk> chunks) {
        int next = 0;
        try {
            while (next < chunks.size()) {
                receiver.accept(chunks.get(next++)); // releases it
            }
        } finally {
            for (int i = next; i < chunks.size(); i++) {
                chunks.get(i).release();
            }
        }
    }

    /** @return the budget inbound streams reserve from */
    public io.jvmps.server.store.MemoryBudget budget() {
        return budget;
    }

    private PsException stalled(TensorReceiver receiver, String peer) {
        String what = "an init or push stream sent no frame for " + idleTimeout + " (ps.server.stream-idle-timeout) "
                + "after " + receiver.tensors() + " complete tensor(s) (" + receiver.claimedIdentity() + "); it was "
                + "cancelled and " + (receiver.handsOverEach() ? "only its complete tensors were applied "
                + "(ps.server.push-apply=PER_SLICE)" : "nothing it sent was applied");
        return Stalls.report(log, what, peer);
    }
}
