package io.jvmps.scheduler.dashboard;

import io.jvmps.common.cluster.ClusterView;
import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.ServerVitals;
import org.springframework.stereotype.Component;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest {@link ServerVitals} each server sent with its heartbeat, for the dashboard's servers panel. Kept in
 * memory only: a restarted scheduler shows each server again after its next heartbeat. Thread-safe.
 */
@Component
public class ServerVitalsBoard {
    private final Map<String, ServerVitals> latest = new ConcurrentHashMap<>();

    /**
     * One server's row of the panel.
     *
     * @param rank   the server's rank
     * @param nodeId its node id
     * @param state  its state in the cluster view
     * @param vitals what it reported last
     */
    public record Row(int rank, String nodeId, String state, ServerVitals vitals) {
    }

    /** Keeps {@code vitals} as what {@code nodeId} reported last. */
    public void record(String nodeId, ServerVitals vitals) {
        latest.put(nodeId, vitals);
    }

    /** @return a row for every server of {@code view} that has reported, by rank */
    public List<Row> rows(ClusterView view) {
        latest.keySet().retainAll(view.nodes().stream().map(NodeInfo::nodeId).toList());
        return view.nodes().stream()
                .filter(n -> n.role() == NodeRole.SERVER && latest.containsKey(n.nodeId()))
                .sorted(Comparator.comparingInt(NodeInfo::rank))
                .map(n -> new Row(n.rank(), n.nodeId(), n.state().name(), latest.get(n.nodeId())))
                .toList();
    }
}
