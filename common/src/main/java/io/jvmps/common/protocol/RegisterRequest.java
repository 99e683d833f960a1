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
 */
public record RegisterRequest(NodeRole role, String host, int rsocketPort, int httpPort, String previousNodeId) {
}
