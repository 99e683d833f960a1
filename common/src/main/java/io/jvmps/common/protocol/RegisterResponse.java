package io.jvmps.common.protocol;

import io.jvmps.common.cluster.ClusterView;

/**
 * The scheduler's answer to a registration (JSON).
 *
 * @param nodeId the id to use in heartbeats and reports
 * @param rank   0-based rank within the node's role
 * @param view   the cluster view right after this registration
 */
public record RegisterResponse(String nodeId, int rank, ClusterView view) {
}
