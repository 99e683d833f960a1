package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeState;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns successive observations of the cluster view and the job state into events (a node joined,
 * died, came back or finished; the job changed state) and keeps the most recent {@code capacity}.
 * Thread-safe.
 */
public final class ClusterEvents {
    private final int capacity;
    private final Deque<ClusterEvent> recent = new ArrayDeque<>();
    private final Map<String, NodeState> known = new HashMap<>();
    private String jobState;

    /** @param capacity events kept, >= 1 */
    public ClusterEvents(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Records what changed since the previous observation.
     *
     * @param view       the current cluster view
     * @param jobState   the current job state name
     * @param jobDetail  shown with a job state change (e.g. the accuracy)
     * @param timeMillis now
     */
    public synchronized void observe(ClusterView view, String jobState, String jobDetail, long timeMillis) {
        for (NodeInfo node : view.nodes()) {
            NodeState before = known.put(node.nodeId(), node.state());
            String who = node.role().label() + " rank " + node.rank() + " (" + node.nodeId() + ")";
            if (before == null) {
                add(timeMillis, "JOINED", who + " joined from " + node.host()
                        + (node.rsocketPort() > 0 ? ":" + node.rsocketPort() : ""));
            } else if (before != node.state()) {
                add(timeMillis, node.state().name(), who + " is " + node.state().name());
            }
        }
        if (!jobState.equals(this.jobState)) {
            add(timeMillis, "JOB", "job " + jobState + (jobDetail.isEmpty() ? "" : ": " + jobDetail));
            this.jobState = jobState;
        }
    }

    /** @return the recent events, newest first */
    public synchronized List<ClusterEvent> recent() {
        return List.copyOf(recent);
    }

    private void add(long timeMillis, String kind, String message) {
        recent.addFirst(new ClusterEvent(timeMillis, kind, message));
        while (recent.size() > capacity) {
            recent.removeLast();
        }
    }
}
