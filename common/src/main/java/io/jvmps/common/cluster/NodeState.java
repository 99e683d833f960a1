package io.jvmps.common.cluster;

/** Liveness of a registered node as judged by the scheduler's failure detector. */
public enum NodeState {
    /** Heartbeats arrive within the timeout. */
    ALIVE,
    /** No heartbeat within the timeout. */
    DEAD,
    /** The node said it finished its work and left. */
    FINISHED
}
