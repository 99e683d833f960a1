package io.jvmps.server.cluster;

/**
 * This server's rank and node id. Fixed from {@code ps.server.rank} when the scheduler is disabled;
 * otherwise unknown (rank -1) until the scheduler assigns them. Thread-safe.
 */
public final class ServerIdentity {
    private volatile int rank;
    private volatile String nodeId;
    private volatile boolean replacement;

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

    /**
     * Records the scheduler's first assignment to this process.
     *
     * @param jobStarted whether every node of the job had registered before: this process replaces a server of
     *                   a running job (a re-registration of the same process, e.g. after the scheduler restarted,
     *                   changes nothing)
     */
    public void assignFirst(int newRank, String newNodeId, boolean jobStarted) {
        if (this.nodeId == null) {
            this.replacement = jobStarted;
        }
        assign(newRank, newNodeId);
    }

    /**
     * @return true when this process took its rank in a job that had already started: the trained values of its
     *         slices were on the server it replaces and are here only if a checkpoint brings them back
     */
    public boolean replacement() {
        return replacement;
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
