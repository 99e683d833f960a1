package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.protocol.RegisterResponse;

/**
 * What a registration did. Immutable.
 *
 * @param node           the registered node as now stored
 * @param kind           how the rank was obtained
 * @param replacedNodeId for {@link Kind#TAKEOVER}, the dead node whose rank was taken; otherwise null
 * @param view           the cluster view right after the registration
 * @param jobStarted     whether every node of the job had registered before this registration
 * @param nodeToken      the node's new credential, answered to it alone
 */
public record Registration(NodeInfo node, Kind kind, String replacedNodeId, ClusterView view, boolean jobStarted,
                           String nodeToken) {

    /** Never prints the token. */
    @Override
    public String toString() {
        return "Registration[node=" + node + ", kind=" + kind + ", replacedNodeId=" + replacedNodeId + "]";
    }

    /** How a registering node got its rank. */
    public enum Kind {
        /** A new rank, the next free one of the role. */
        NEW,
        /** A known node came back with its previous id and kept its rank. */
        REREGISTERED,
        /** The role was full; the node took the rank of a DEAD node. */
        TAKEOVER
    }

    /**
     * @param jobFailure why the job failed, or null
     * @return the REST answer
     */
    public RegisterResponse toResponse(String jobFailure) {
        return new RegisterResponse(node.nodeId(), node.rank(), view, jobStarted, jobFailure, nodeToken);
    }
}
