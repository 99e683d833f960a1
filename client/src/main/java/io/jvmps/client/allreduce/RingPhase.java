package io.jvmps.client.allreduce;

/** The two halves of a ring AllReduce. */
public enum RingPhase {
    /** Each worker adds its neighbour's partial sums into one segment per round. */
    REDUCE_SCATTER,
    /** Each worker passes on the finished (averaged) segments until everyone has all of them. */
    ALL_GATHER
}
