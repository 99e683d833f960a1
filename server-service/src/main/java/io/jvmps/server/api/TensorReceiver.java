package io.jvmps.server.api;

import io.jvmps.common.codec.DType;
import io.jvmps.common.codec.TensorAssembler;
import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * Turns the chunks of one init or push channel into whole float32 tensors, validating each before
 * anything is stored: element type, expected length (via the caller's check), one step and sender
 * per stream, each key at most once, finite values. Chunk bytes are copied once, straight into the
 * native buffer of an INDArray the caller supplies (a push reuses a gradient buffer of its slice's, see
 * {@link io.jvmps.server.store.GradientBuffers}). A stream that fails, stalls or is cancelled before its tensors were
 * handed over has them freed at once ({@link #discard()}), so its native memory does not wait for a garbage
 * collection. With a consumer of whole tensors (per-slice application), each tensor is handed to it the moment
 * its last chunk was checked, and its reservation given back: the consumer owns its array from then on, also
 * when it throws. One receiver per channel; its methods are synchronized because a stall's timer may discard it
 * while a late frame is still being copied in.
 */
final class TensorReceiver {
    private final TensorAssembler assembler;
    private final ToIntFunction<TensorChunk> expectedLength;
    private final ReceiveBuffers buffers;
    private final List<ReceivedTensor> received = new ArrayList<>();
    private final Set<Long> keys = new HashSet<>();
    private INDArray pending;
    private final io.jvmps.server.store.MemoryBudget budget;
    private long reserved;
    private boolean delivered;
    private boolean discarded;
    private final java.util.function.Consumer<ReceivedTensor> onWhole; // null: tensors are kept until finish()

    /**
     * @param maxTensorBytes largest tensor accepted ({@code ps.transport.max-tensor-bytes})
     * @param expectedLength given a tensor's first chunk, returns the element count it must have or
     *                       throws a {@link PsException} (UNKNOWN_KEY, SHAPE_MISMATCH)
     * @param budget         where each tensor's bytes are reserved before they are allocated
     * @param buffers        the array each tensor is received into, owned by this receiver from then on
     */
    TensorReceiver(long maxTensorBytes, ToIntFunction<TensorChunk> expectedLength, io.jvmps.server.store.MemoryBudget budget,
                   ReceiveBuffers buffers) {
        this(maxTensorBytes, expectedLength, budget, buffers, null);
    }

    /**
     * @param onWhole takes each whole, checked tensor as it completes (null: they are kept until {@link #finish()})
     */
    TensorReceiver(long maxTensorBytes, ToIntFunction<TensorChunk> expectedLength, io.jvmps.server.store.MemoryBudget budget,
                   ReceiveBuffers buffers, java.util.function.Consumer<ReceivedTensor> onWhole) {
        this.onWhole = onWhole;
        this.expectedLength = expectedLength;
        this.buffers = buffers;
        this.budget = budget;
        this.assembler = new TensorAssembler(maxTensorBytes, this::destination);
    }

    /** Gives back every reservation of this stream (once it ended, failed, stalled or was cancelled). */
    synchronized void releaseReservations() {
        budget.release(reserved);
        reserved = 0;
    }

    private synchronized void reserve(long bytes, long key) {
        budget.reserve(bytes, "slice " + SliceKey.describe(key));
        reserved += bytes;
    }

    /** @return true when each whole tensor is handed over as it completes (per-slice application) */
    boolean handsOverEach() {
        return onWhole != null;
    }

    /** @return tensors received whole so far */
    synchronized int tensors() {
        return received.size();
    }

    /** @param chunk the next chunk; released here (unread once the receiver was discarded) */
    synchronized void accept(TensorChunk chunk) {
        try {
            if (discarded) {
                return;
            }
            TensorAssembler.Assembled done = assembler.accept(chunk);
            requireFinite(chunk); // each chunk as it lands, while its bytes are still in cache
            if (done != null) {
                ReceivedTensor tensor = new ReceivedTensor(done.key(), done.step(), done.sender(), done.tag(), pending);
                received.add(tensor);
                pending = null;
                if (onWhole != null) {
                    long bytes = 4L * tensor.values().length();
                    budget.release(bytes);
                    reserved -= bytes;
                    onWhole.accept(tensor);
                }
            }
        } finally {
            chunk.release();
        }
    }

    /** @return every tensor of the stream, in arrival order */
    synchronized List<ReceivedTensor> finish() {
        if (discarded) {
            throw new PsException(ErrorCode.INTERNAL, "stream was discarded before it completed");
        }
        if (!assembler.idle()) {
            throw new PsException(ErrorCode.MALFORMED_FRAME, "stream ended in the middle of slice "
                    + SliceKey.describe(assembler.pendingKey()));
        }
        delivered = true;
        return received;
    }

    /**
     * Frees the native memory of every tensor received or half-received, unless {@link #finish()} already
     * handed them over (their user owns them then); later chunks are released unread. Idempotent.
     */
    synchronized void discard() {
        if (delivered || discarded) {
            return;
        }
        discarded = true;
        if (pending != null) {
            pending.close();
            pending = null;
        }
        if (onWhole == null) { // else each was handed over as it completed
            received.forEach(t -> t.values().close());
        }
        received.clear();
    }

    /** @return tensors (whole or partly received) whose native memory this receiver holds and has not freed */
    synchronized int openTensors() {
        long open = onWhole != null ? 0 : received.stream().filter(t -> !t.values().wasClosed()).count();
        return (int) open + (pending != null && !pending.wasClosed() ? 1 : 0);
    }

    /** @return the step, sender and tag the stream's first tensor claimed, or a note that none arrived */
    synchronized String claimedIdentity() {
        return received.isEmpty() ? "no complete tensor" : "worker " + received.get(0).sender() + ", step "
                + received.get(0).step() + ", tag " + received.get(0).tag();
    }

    private ByteBuffer destination(TensorChunk first) {
        if (first.dtype() != DType.FLOAT32) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "slice " + SliceKey.describe(first.key()) + " arrived as "
                    + first.dtype() + "; dense slices are FLOAT32");
        }
        if (!received.isEmpty() && (received.get(0).step() != first.step() || received.get(0).sender() != first.sender()
                || received.get(0).tag() != first.tag())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "one stream must carry one step, sender and tag: slice "
                    + SliceKey.describe(first.key()) + " has step " + first.step() + " sender " + first.sender()
                    + " tag " + first.tag() + ", the stream began with step " + received.get(0).step() + " sender "
                    + received.get(0).sender() + " tag " + received.get(0).tag());
        }
        if (first.shape().length != 1) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(first.key()) + " arrived with "
                    + "shape " + java.util.Arrays.toString(first.shape()) + "; dense slices are sent 1-D, as [elements]");
        }
        if (!keys.add(first.key())) {
            throw new PsException(ErrorCode.DUPLICATE_PUSH, "slice " + SliceKey.describe(first.key())
                    + " appears twice in one stream");
        }
        int length = expectedLength.applyAsInt(first);
        reserve(4L * length, first.key());
        pending = buffers.take(first, length);
        if (pending.length() != length || pending.dataType() != DataType.FLOAT) {
            throw new IllegalStateException("receive buffer of " + pending.length() + " " + pending.dataType()
                    + " for slice " + SliceKey.describe(first.key()) + " of " + length + " FLOAT elements");
        }
        return pending.data().asNio();
    }

    private static void requireFinite(TensorChunk chunk) {
        // in Java over the received bytes: no native call (whose OpenMP threads would compete with the event loops
        // for the cores), and the first bad element is named
        int bad = FiniteScan.firstNonFinite(chunk.data());
        if (bad >= 0) {
            float f = chunk.data().getFloatLE(chunk.data().readerIndex() + 4 * bad);
            throw new PsException(ErrorCode.NON_FINITE, "slice " + SliceKey.describe(chunk.key()) + " element "
                    + (chunk.offset() + bad) + " is " + f);
        }
    }
}
