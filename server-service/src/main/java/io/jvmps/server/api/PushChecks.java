package io.jvmps.server.api;

import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * What every way of applying a dense push checks and answers: each slice's frames carry the slice's length, a push
 * carries at least one slice, and the acknowledgement counts the slices and elements taken. Stateless.
 */
@Component
public final class PushChecks {
    private final DenseStore store;
    private final ServerIdentity identity;

    /** @param identity this server's rank, for the acknowledgement */
    public PushChecks(DenseStore store, ServerIdentity identity) {
        this.store = store;
        this.identity = identity;
    }

    /**
     * @return the element count of the slice {@code first} starts
     * @throws PsException {@code UNKNOWN_KEY} for a slice this server does not hold, {@code SHAPE_MISMATCH} when
     *                     the frames carry another length
     */
    int length(TensorChunk first) {
        DenseSlice slice = store.require(first.key());
        if (first.totalElements() != slice.length()) {
            throw new PsException(ErrorCode.SHAPE_MISMATCH, "slice " + SliceKey.describe(first.key()) + " holds "
                    + slice.length() + " elements; push from worker " + first.sender() + " carries "
                    + first.totalElements());
        }
        return slice.length();
    }

    /** @return the acknowledgement of a push (init: step -1) of {@code tensors} */
    PushAck ack(long step, List<ReceivedTensor> tensors) {
        long elements = tensors.stream().mapToLong(t -> store.require(t.key()).length()).sum(); // arrays may be handed on
        return new PushAck(identity.rank(), step, tensors.size(), elements);
    }

    /** @throws PsException INVALID_ARGUMENT when a channel ({@code what}: "a push", "an init") carried no slice */
    static void requireSlices(List<ReceivedTensor> tensors, String what) {
        if (tensors.isEmpty()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, what + " stream carried no slice; send at least one");
        }
    }
}
