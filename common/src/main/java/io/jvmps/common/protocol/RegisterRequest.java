package io.jvmps.common.protocol;

import io.jvmps.common.cluster.NodeRole;

/**
 * Body of {@code POST /api/v1/nodes}: a server or worker announcing itself to the scheduler (JSON).
 *
 * @param role        {@code SERVER} or {@code WORKER}
 * @param host        host name or IP other nodes can reach this node on
 * @param rsocketPort the node's RSocket port (servers), 0 for none
 * @param httpPort    the node's HTTP port, 0 if unknown
 * @param previousNodeId the id this node had before a restart, or null for a first registration
 * @param previousRank   the rank it had under that id, or null; a scheduler that restarted and no longer
 *                       knows the id gives the node this rank (and id) back when nobody else holds it
 */
public record RegisterRequest(NodeRole role, String host, int rsocketPort, int httpPort, String previousNodeId,
                              Integer previousRank) {

    /** A registration without a previous rank. */
    public RegisterRequest(NodeRole role, String host, int rsocketPort, int httpPort, String previousNodeId) {
        this(role, host, rsocketPort, httpPort, previousNodeId, null);
    }
}
