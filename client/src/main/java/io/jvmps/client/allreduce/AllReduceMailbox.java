package io.jvmps.client.allreduce;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.nio.ByteOrder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Inbound AllReduce segments, keyed by {@link RingKey}. Netty threads {@link #deliver} chunks (a copy
 * into a float array, never a wait); the training thread {@link #take}s a whole segment, waiting with
 * a deadline. A segment may arrive before its receiver asks for it (the left neighbour is ahead).
 * Thread-safe.
 */
public class AllReduceMailbox {
    private final Map<RingKey, Slot> slots = new ConcurrentHashMap<>();

    /**
     * Copies a chunk into its segment; the chunk is not released here.
     *
     * @throws PsException MALFORMED_FRAME for a non-float32 chunk or one that does not fit its
     *                     segment, DUPLICATE_PUSH for more elements than the segment holds
     */
    public void deliver(TensorChunk chunk) {
        if (chunk.dtype() != DType.FLOAT32 || chunk.shape().length != 1 || chunk.key() < 0
                || chunk.offset() < 0 || chunk.offset() + chunk.count() > chunk.totalElements()) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "allreduce chunk " + chunk
                    + " is not a float32 piece of a 1-D segment");
        }
        RingKey key = RingKey.of(chunk.step(), chunk.tag());
        slots.computeIfAbsent(key, k -> new Slot()).add(key, chunk);
    }

    /**
     * Waits for a whole segment and removes it from the mailbox.
     *
     * @param key     which message
     * @param segment segment index expected
     * @param length  element count expected
     * @param timeout deadline
     * @param peer    who should send it, for the TIMEOUT message (e.g. {@code worker 1 (127.0.0.1:7001)})
     * @return the segment's values
     */
    public float[] take(RingKey key, int segment, int length, Duration timeout, String peer) {
        Slot slot = slots.computeIfAbsent(key, k -> new Slot());
        Slot.Done done;
        try {
            done = slot.done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new PsException(ErrorCode.TIMEOUT, "allreduce waited " + timeout + " for " + peer
                    + " to send its segment of " + key);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PsException(ErrorCode.INTERNAL, "interrupted waiting for " + peer + " (" + key + ")");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            slots.remove(key, slot);
        }
        if (done.segment != segment || done.values.length != length) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, peer + " sent segment " + done.segment + " of "
                    + done.values.length + " elements for " + key + ", expected segment " + segment + " of "
                    + length + " elements");
        }
        return done.values;
    }

    /** @return segments received or awaited but not yet taken (a leak check for tests) */
    public int pending() {
        return slots.size();
    }

    /** One segment being received. */
    private static final class Slot {
        record Done(int segment, float[] values) {
        }

        final CompletableFuture<Done> done = new CompletableFuture<>();
        private float[] values;
        private int segment;
        private long received;

        synchronized void add(RingKey key, TensorChunk chunk) {
            if (values == null) {
                values = new float[(int) chunk.totalElements()];
                segment = (int) chunk.key();
            }
            if (chunk.key() != segment || chunk.totalElements() != values.length) {
                throw new PsException(ErrorCode.MALFORMED_FRAME, "chunk " + chunk + " does not continue segment "
                        + segment + " of " + values.length + " elements for " + key);
            }
            if (done.isDone() || received + chunk.count() > values.length) {
                throw new PsException(ErrorCode.DUPLICATE_PUSH, "segment " + segment + " of " + key
                        + " received more than its " + values.length + " elements from worker " + chunk.sender());
            }
            chunk.data().nioBuffer(chunk.data().readerIndex(), chunk.count() * 4).order(ByteOrder.LITTLE_ENDIAN)
                    .asFloatBuffer().get(values, (int) chunk.offset(), chunk.count());
            received += chunk.count();
            if (received == values.length) {
                done.complete(new Done(segment, values));
            }
        }
    }
}
