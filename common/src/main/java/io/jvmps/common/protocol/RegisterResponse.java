package io.jvmps.common.protocol;

import io.jvmps.common.cluster.ClusterView;

/**
 * The scheduler's answer to a registration (JSON).
 *
 * @param nodeId     the id to use in heartbeats and reports
 * @param rank       0-based rank within the node's role
 * @param view       the cluster view right after this registration
 * @param jobStarted whether every node of the job had registered before this one: a server that registers
 *                   into a started job replaces a lost one and must restore its parameters from a checkpoint
 * @param jobFailure why the job failed, or null while it has not: a node that gets one does not take part
 */
public record RegisterResponse(String nodeId, int rank, ClusterView view, boolean jobStarted, String jobFailure) {
    /** An answer for a job that has not started and has not failed. */
    public RegisterResponse(String nodeId, int rank, ClusterView view) {
        this(nodeId, rank, view, false, null);
    }
}
