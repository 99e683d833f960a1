package io.jvmps.common.cluster;

/**
 * One registered node as the scheduler sees it. Immutable.
 *
 * @param nodeId        opaque unique id assigned by the scheduler (e.g. {@code server-0-3f2a})
 * @param role          the node's role
 * @param rank          0-based rank within its role, dense
 * @param host          host name or IP others use to reach it
 * @param rsocketPort   RSocket TCP port, or 0 when the node serves none (workers)
 * @param httpPort      HTTP port of its REST/actuator endpoints, or 0 if unknown
 * @param state         liveness
 * @param lastHeartbeatMillis wall-clock time of the last heartbeat, epoch milliseconds
 */
public record NodeInfo(String nodeId, NodeRole role, int rank, String host, int rsocketPort, int httpPort,
                       NodeState state, long lastHeartbeatMillis) {

    /** @return {@code host:rsocketPort}, the endpoint a worker connects to */
    public String rsocketEndpoint() {
        return host + ":" + rsocketPort;
    }

    /** @return a copy with another state */
    public NodeInfo withState(NodeState newState) {
        return new NodeInfo(nodeId, role, rank, host, rsocketPort, httpPort, newState, lastHeartbeatMillis);
    }

    /** @return a copy with another heartbeat time */
    public NodeInfo withHeartbeat(long millis) {
        return new NodeInfo(nodeId, role, rank, host, rsocketPort, httpPort, state, millis);
    }
}
