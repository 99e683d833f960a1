package io.jvmps.scheduler.data;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.NodeState;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.common.protocol.PartitionRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.scheduler.registry.NodeRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Dynamic data sharding: hands the job's (epoch, partition) pairs to workers one at a time, so workers
 * that join a running job (scale-out) share the remaining data with the others, and a partition held by
 * a worker that died or left goes to the next worker that asks. The plan (epochs x partitions) is fixed by
 * the first request. Thread-safe (one monitor; requests are a few per second).
 */
@Component
public class DataPartitions {
    private static final Logger log = LoggerFactory.getLogger(DataPartitions.class);
    private static final int MAX_EPOCHS = 100_000;
    private static final int MAX_PARTITIONS = 1_000_000;

    private final NodeRegistry registry;
    private int epochs;
    private int partitions;
    private BitSet done;
    private final Map<Integer, String> leased = new HashMap<>();
    private long doneCount;

    /** @param registry tells who is a live worker */
    public DataPartitions(NodeRegistry registry) {
        this.registry = registry;
    }

    /**
     * Records the partition the worker finished, if any, and leases it the next one.
     *
     * @throws PsException UNKNOWN_KEY for an unregistered node; INVALID_ARGUMENT for a non-worker, a plan
     *                     that differs from the job's, or a finished partition out of range
     */
    public synchronized PartitionLease next(PartitionRequest request) {
        if (request == null) {
            throw invalid("partition request body is required");
        }
        NodeInfo worker = registry.require(request.nodeId());
        if (worker.role() != NodeRole.WORKER) {
            throw invalid("node '" + request.nodeId() + "' is a " + worker.role().label() + "; only workers train "
                    + "data partitions");
        }
        plan(request);
        boolean reportsDone = request.doneEpoch() >= 0 || request.donePartition() >= 0;
        if (reportsDone) {
            requireInPlan(request.doneEpoch(), request.donePartition());
        }
        Integer held = heldBy(worker.nodeId());
        boolean finishesHeld = held != null && held == request.doneEpoch() * partitions + request.donePartition();
        if (held != null && !finishesHeld) {
            // a worker holds one lease at a time: this is a request it sent again because the answer was lost (or
            // the scheduler restarted before it went out); the answer is the lease it already holds
            return new PartitionLease(true, held / partitions, held % partitions, doneCount, (long) epochs * partitions);
        }
        if (reportsDone) {
            finish(worker, request.doneEpoch(), request.donePartition());
        }
        requeueLeasesOfGoneWorkers();
        long total = (long) epochs * partitions;
        int next = done.nextClearBit(0);
        while (next < total && leased.containsKey(next)) {
            next = done.nextClearBit(next + 1);
        }
        if (next >= total || worker.state() != NodeState.ALIVE) {
            return new PartitionLease(false, -1, -1, doneCount, total);
        }
        leased.put(next, worker.nodeId());
        return new PartitionLease(true, next / partitions, next % partitions, doneCount, total);
    }

    /**
     * The partition queue as it is kept across a restart of the scheduler.
     *
     * @param epochs     the plan's epochs (0 before the first request)
     * @param partitions the plan's partitions per epoch
     * @param done       indices ({@code epoch * partitions + partition}) of the finished partitions, ascending
     * @param leased     index of each leased partition to the node id holding it
     */
    public record Saved(int epochs, int partitions, List<Integer> done, Map<Integer, String> leased) {
    }

    /** @return the queue's state, for {@link #restore} after a restart */
    public synchronized Saved save() {
        List<Integer> finished = done == null ? List.of() : done.stream().boxed().toList();
        return new Saved(epochs, partitions, finished, Map.copyOf(leased));
    }

    /** Takes back a saved state (at start-up, before any request). */
    public synchronized void restore(Saved saved) {
        leased.clear();
        if (saved.epochs() == 0) {
            done = null;
            doneCount = 0;
            return;
        }
        epochs = saved.epochs();
        partitions = saved.partitions();
        done = new BitSet(epochs * partitions);
        saved.done().forEach(done::set);
        doneCount = done.cardinality();
        leased.putAll(saved.leased());
    }

    /** @return partitions finished so far, and the job's total (0 before the first request) */
    public synchronized long[] progress() {
        return new long[] {doneCount, done == null ? 0 : (long) epochs * partitions};
    }

    private void plan(PartitionRequest request) {
        if (request.epochs() < 1 || request.epochs() > MAX_EPOCHS || request.partitions() < 1
                || request.partitions() > MAX_PARTITIONS) {
            throw invalid("epochs must be in [1, " + MAX_EPOCHS + "] and partitions in [1, " + MAX_PARTITIONS
                    + "], got epochs=" + request.epochs() + " partitions=" + request.partitions());
        }
        if ((long) request.epochs() * request.partitions() > Integer.MAX_VALUE - 1) {
            throw invalid("epochs x partitions must stay below 2^31, got " + request.epochs() + " x "
                    + request.partitions());
        }
        if (done == null) {
            epochs = request.epochs();
            partitions = request.partitions();
            done = new BitSet(epochs * partitions);
            log.info("Dynamic data sharding: {} epochs x {} partitions handed out to workers one at a time", epochs,
                    partitions);
        } else if (request.epochs() != epochs || request.partitions() != partitions) {
            throw invalid("this job's data plan is " + epochs + " epochs x " + partitions + " partitions, but worker "
                    + request.nodeId() + " asks for " + request.epochs() + " x " + request.partitions()
                    + "; start every worker with the same ps.worker.training.epochs and ps.worker.dataset.partitions");
        }
    }

    private void requireInPlan(int epoch, int partition) {
        if (epoch < 0 || epoch >= epochs || partition < 0 || partition >= partitions) {
            throw invalid("finished partition (epoch " + epoch + ", partition " + partition + ") is outside the plan "
                    + epochs + " x " + partitions);
        }
    }

    private void finish(NodeInfo worker, int epoch, int partition) {
        int index = epoch * partitions + partition;
        leased.remove(index);
        if (!done.get(index)) {
            done.set(index);
            doneCount++;
        } else {
            log.warn("Worker {} finished partition (epoch {}, partition {}) that another worker had finished: it was "
                    + "trained twice", worker.nodeId(), epoch, partition);
        }
    }

    private Integer heldBy(String nodeId) {
        for (Map.Entry<Integer, String> lease : leased.entrySet()) {
            if (lease.getValue().equals(nodeId)) {
                return lease.getKey();
            }
        }
        return null;
    }

    private void requeueLeasesOfGoneWorkers() {
        for (Iterator<Map.Entry<Integer, String>> it = leased.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, String> lease = it.next();
            NodeState state = registry.find(lease.getValue()).map(NodeInfo::state).orElse(NodeState.DEAD);
            if (state != NodeState.ALIVE) {
                it.remove();
                log.warn("Partition (epoch {}, partition {}) goes back to the queue: its worker {} is {}",
                        lease.getKey() / partitions, lease.getKey() % partitions, lease.getValue(), state);
            }
        }
    }

    private static PsException invalid(String detail) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, detail);
    }
}
