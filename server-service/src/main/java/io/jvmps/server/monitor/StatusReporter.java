package io.jvmps.server.monitor;

import io.jvmps.server.sparse.SparseTables;

import io.jvmps.server.cluster.ServerIdentity;
import io.jvmps.server.consistency.ConsistencyPolicy;
import io.jvmps.server.consistency.ConsistencySettings;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;

import java.util.List;

/** Builds {@link ServerStatus} snapshots. Thread-safe (reads volatile versions; takes no slice lock). */
public final class StatusReporter {
    private final ServerIdentity identity;
    private final DenseStore store;
    private final ConsistencyPolicy policy;
    private final ConsistencySettings consistency;
    private final Optimizer optimizer;
    private final int workers;
    private final SparseTables sparse;

    /**
     * @param identity    rank and node id
     * @param store       the slices
     * @param policy      the consistency policy
     * @param consistency the mode and its parameters
     * @param optimizer   the optimizer
     * @param workers     expected workers
     */
    public StatusReporter(ServerIdentity identity, DenseStore store, ConsistencyPolicy policy,
                          ConsistencySettings consistency, Optimizer optimizer, int workers, SparseTables sparse) {
        this.identity = identity;
        this.store = store;
        this.policy = policy;
        this.consistency = consistency;
        this.optimizer = optimizer;
        this.workers = workers;
        this.sparse = sparse;
    }

    /** @return the current status */
    public ServerStatus status() {
        List<DenseSlice> slices = store.slices();
        long elements = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (DenseSlice s : slices) {
            elements += s.length();
            min = Math.min(min, s.version());
            max = Math.max(max, s.version());
        }
        boolean none = slices.isEmpty();
        return new ServerStatus(identity.rank(), identity.nodeId(), slices.size(), elements, elements * 4,
                none ? -1 : min, none ? -1 : max, optimizer.describe(), policy.mode().name(), workers,
                policy.pushesAccepted(), policy.updatesApplied(), consistency.staleness(), consistency.geoInterval(),
                consistency.geoLearningRate(), policy.workerClocks(),
                sparse.statuses(), sparse.budget().used(), sparse.budget().max());
    }
}
