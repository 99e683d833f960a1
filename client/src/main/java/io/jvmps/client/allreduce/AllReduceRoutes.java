package io.jvmps.client.allreduce;

/**
 * RSocket routes the workers serve to each other for the AllReduce of worker-local parameters
 * (candidates for {@code io.jvmps.common.protocol.Routes} once the protocol settles). Immutable constants.
 */
public final class AllReduceRoutes {
    /**
     * One chunk of one ring segment (request-response): the payload is one binary {@code TensorChunk}
     * frame (FLOAT32, key = segment index, step = training step, sender = worker rank,
     * tag = {@link RingKey#tag()} = phase and round, shape = [segment length]); the answer is empty
     * once the chunk is in the receiver's mailbox.
     */
    public static final String SEGMENT = "ps.v1.allreduce.segment";

    private AllReduceRoutes() {
    }
}
