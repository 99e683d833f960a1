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
 * @param nodeToken  this node's own credential ({@link io.jvmps.common.security.NodeToken}): every later call in
 *                   its name must carry it; answered to this node only
 */
public record RegisterResponse(String nodeId, int rank, ClusterView view, boolean jobStarted, String jobFailure,
                               String nodeToken) {
    /** An answer for a job that has not started and has not failed. */
    public RegisterResponse(String nodeId, int rank, ClusterView view, String nodeToken) {
        this(nodeId, rank, view, false, null, nodeToken);
    }

    /** Never prints the token. */
    @Override
    public String toString() {
        return "RegisterResponse[nodeId=" + nodeId + ", rank=" + rank + ", view=" + view + ", jobStarted=" + jobStarted
                + ", jobFailure=" + jobFailure + ", nodeToken=" + (nodeToken == null ? "none" : "(hidden)") + "]";
    }
}
