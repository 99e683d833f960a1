package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.server.sparse.SparseRows;

import java.util.List;

/**
 * What one server writes for one checkpoint: the model it was declared with and the copies of the
 * slices it owns. The parts of all servers at one step together cover every element once.
 *
 * @param step       the checkpoint's step (slice version of the cut)
 * @param rank       the writing server's rank
 * @param servers    number of servers of the job that wrote it
 * @param optimizer  optimizer name (its state slots must match on restore)
 * @param stateSlots optimizer state slots per element
 * @param params     the declared model, in model order
 * @param slices     the writer's slices
 * @param ledger     the writer's push ledger: each worker's last push before {@code step}
 * @param sparse     the rows of the sparse tables the writer holds, one copy per table
 * @param clocks     per worker rank, the first step (GEO: round) of that worker whose push is not in
 *                   {@code slices}; empty where the mode keeps no clocks (SYNC: the step is the cut) or the
 *                   format predates them
 */
public record CheckpointPart(long step, int rank, int servers, String optimizer, int stateSlots,
                             List<ParamSpec> params, List<SliceCopy> slices, List<LedgerEntry> ledger,
                             List<SparseRows> sparse, List<Long> clocks) {
    /** Copies the lists. */
    public CheckpointPart {
        params = List.copyOf(params);
        slices = List.copyOf(slices);
        ledger = List.copyOf(ledger);
        sparse = List.copyOf(sparse);
        clocks = List.copyOf(clocks);
    }

    /** A part without worker clocks. */
    public CheckpointPart(long step, int rank, int servers, String optimizer, int stateSlots,
                          List<ParamSpec> params, List<SliceCopy> slices, List<LedgerEntry> ledger,
                          List<SparseRows> sparse) {
        this(step, rank, servers, optimizer, stateSlots, params, slices, ledger, sparse, List.of());
    }

    /** A part without sparse tables. */
    public CheckpointPart(long step, int rank, int servers, String optimizer, int stateSlots,
                          List<ParamSpec> params, List<SliceCopy> slices, List<LedgerEntry> ledger) {
        this(step, rank, servers, optimizer, stateSlots, params, slices, ledger, List.of());
    }

    /** A part without ledger entries. */
    public CheckpointPart(long step, int rank, int servers, String optimizer, int stateSlots,
                          List<ParamSpec> params, List<SliceCopy> slices) {
        this(step, rank, servers, optimizer, stateSlots, params, slices, List.of());
    }

    /** @return elements held by the slices */
    public long elements() {
        return slices.stream().mapToLong(SliceCopy::length).sum();
    }
}
