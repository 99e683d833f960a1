package io.jvmps.server.cluster;

/**
 * This server's rank and node id. Fixed from {@code ps.server.rank} when the scheduler is disabled;
 * otherwise unknown (rank -1) until the scheduler assigns them. Thread-safe.
 */
public final class ServerIdentity {
    private volatile int rank;
    private volatile String nodeId;

    private ServerIdentity(int rank, String nodeId) {
        this.rank = rank;
        this.nodeId = nodeId;
    }

    /** @return an identity fixed at start-up, for runs without a scheduler */
    public static ServerIdentity standalone(int rank) {
        return new ServerIdentity(rank, "server-" + rank + "-standalone");
    }

    /** @return an identity waiting for the scheduler's answer */
    public static ServerIdentity unregistered() {
        return new ServerIdentity(-1, null);
    }

    /** Records the scheduler's assignment. */
    public void assign(int newRank, String newNodeId) {
        this.nodeId = newNodeId;
        this.rank = newRank;
    }

    /** @return the rank, or -1 before registration */
    public int rank() {
        return rank;
    }

    /** @return the node id, or null before registration */
    public String nodeId() {
        return nodeId;
    }

    /** @return true once a rank is known */
    public boolean assigned() {
        return rank >= 0;
    }
}
