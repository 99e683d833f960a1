package io.jvmps.client.allreduce;

/**
 * A worker's place in the ring: it sends to its right neighbour (rank + 1) and receives from its
 * left one (rank - 1). Used by one training thread at a time.
 */
public interface RingLink {

    /** @return this worker's rank, 0 .. size - 1 */
    int rank();

    /** @return number of workers in the ring */
    int size();

    /**
     * Starts sending {@code length} values of {@code data} from {@code from} to the right neighbour.
     * The values are copied before this returns, so the caller may change {@code data} at once.
     *
     * @param key     which message this is
     * @param segment the segment index (checked by the receiver)
     * @return a handle to wait for the neighbour's acknowledgement
     */
    Sent send(RingKey key, int segment, float[] data, int from, int length);

    /**
     * Waits (with the link's deadline) for the left neighbour's message.
     *
     * @param key     which message
     * @param segment the segment index expected
     * @param length  the element count expected
     * @return the values
     * @throws io.jvmps.common.protocol.PsException TIMEOUT naming the neighbour; SHAPE_MISMATCH or
     *                                              MALFORMED_FRAME for a message that does not fit
     */
    float[] receive(RingKey key, int segment, int length);

    /** An outbound message in flight. */
    interface Sent {
        /** Waits until the neighbour acknowledged it (with the link's deadline), or throws its error. */
        void await();
    }
}
