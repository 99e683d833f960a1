package io.jvmps.common.cluster;

import java.util.Comparator;
import java.util.List;

/**
 * A snapshot of the cluster: who is registered, with which rank, and how many nodes of each role
 * the job expects. {@code epoch} increases on every membership change, so two views can be ordered.
 * Immutable; nodes are sorted by role then rank.
 *
 * @param epoch           membership version, starting at 1 with the first registration
 * @param expectedServers number of servers the job is configured for
 * @param expectedWorkers number of workers the job is configured for
 * @param nodes           registered servers and workers, sorted by role then rank
 */
public record ClusterView(long epoch, int expectedServers, int expectedWorkers, List<NodeInfo> nodes) {

    /** Sorts and copies the node list. */
    public ClusterView {
        nodes = nodes.stream()
                .sorted(Comparator.comparing(NodeInfo::role).thenComparingInt(NodeInfo::rank))
                .toList();
    }

    /** @return the registered nodes of one role, by rank */
    public List<NodeInfo> byRole(NodeRole role) {
        return nodes.stream().filter(n -> n.role() == role).toList();
    }

    /** @return registered servers, by rank */
    public List<NodeInfo> servers() {
        return byRole(NodeRole.SERVER);
    }

    /** @return registered workers, by rank */
    public List<NodeInfo> workers() {
        return byRole(NodeRole.WORKER);
    }

    /** @return true once every expected server and worker has registered */
    public boolean complete() {
        return servers().size() >= expectedServers && workers().size() >= expectedWorkers;
    }
}
