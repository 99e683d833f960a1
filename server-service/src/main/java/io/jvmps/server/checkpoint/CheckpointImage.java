package io.jvmps.server.checkpoint;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.Slice;
import io.jvmps.server.sparse.SparseRows;

import java.util.Arrays;
import java.util.List;

/**
 * A checkpoint joined into whole parameters, from which a server cuts the slices its own shard map
 * gives it, whatever the server count that wrote the checkpoint. Immutable; do not modify the arrays.
 *
 * @param step       the step the values belong to
 * @param params     the model, in model order
 * @param optimizer  optimizer name the state belongs to
 * @param stateSlots optimizer state slots per element
 * @param values     values per parameter (flat, row-major)
 * @param state      per parameter, the state slots (flat, row-major)
 * @param ledgers    each writing server's push ledger, by rank
 * @param sparse     the sparse tables, one copy per table joined from every part
 * @param clocks     each writing server's worker clocks, by rank (see {@link CheckpointPart#clocks()})
 */
public record CheckpointImage(long step, List<ParamSpec> params, String optimizer, int stateSlots, float[][] values,
                              float[][][] state, List<List<LedgerEntry>> ledgers, List<SparseRows> sparse,
                              List<List<Long>> clocks) {

    /** @return this image without its sparse tables (so a holder of the dense part does not keep their rows) */
    public CheckpointImage withoutSparse() {
        return new CheckpointImage(step, params, optimizer, stateSlots, values, state, ledgers, List.of(), clocks);
    }

    /**
     * @return per worker rank, the step (GEO: round) that worker resumes at: the first one missing from at
     *         least one part, so no push is lost anywhere. Empty when a part kept no clocks (SYNC, or an older
     *         format) or the parts disagree on the worker count
     */
    public long[] resumeClocks() {
        if (clocks.isEmpty() || clocks.stream().anyMatch(c -> c.isEmpty() || c.size() != clocks.get(0).size())) {
            return new long[0];
        }
        long[] min = new long[clocks.get(0).size()];
        java.util.Arrays.fill(min, Long.MAX_VALUE);
        for (List<Long> part : clocks) {
            for (int w = 0; w < min.length; w++) {
                min[w] = Math.min(min[w], part.get(w));
            }
        }
        return min;
    }

    /**
     * @return per worker rank, the first step (GEO: round) whose push server {@code rank} of {@code servers}
     *         does not hold: its own part's clocks when the server count is unchanged, so pushes it already
     *         applied are not applied again when the workers resume at {@link #resumeClocks()}; otherwise
     *         (its slices come from several parts) the resume clocks, and pushes between them and a part's
     *         clocks are applied again on that part's elements. Empty when {@link #resumeClocks()} is
     */
    public long[] appliedClocks(int rank, int servers) {
        long[] resume = resumeClocks();
        if (resume.length == 0 || servers != clocks.size() || rank >= servers) {
            return resume;
        }
        return clocks.get(rank).stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * @return the push ledger to restore on server {@code rank} of {@code servers}: the part of the same
     *         rank when the server count is unchanged; none otherwise (acknowledgements name their server)
     */
    public List<LedgerEntry> ledgerFor(int rank, int servers) {
        return servers == ledgers.size() && rank < servers ? ledgers.get(rank) : List.of();
    }

    /**
     * @param slice a slice of the same model
     * @return its values and state, copied, at {@link #step()}
     */
    public SliceCopy cut(Slice slice) {
        int p = slice.paramIndex();
        int from = (int) slice.offset();
        int to = from + slice.length();
        float[][] slots = new float[stateSlots][];
        for (int s = 0; s < stateSlots; s++) {
            slots[s] = Arrays.copyOfRange(state[p][s], from, to);
        }
        return new SliceCopy(p, slice.offset(), Arrays.copyOfRange(values[p], from, to), slots, step);
    }
}
