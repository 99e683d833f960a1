package io.jvmps.server.sparse;

import io.jvmps.server.store.MemoryBudget;
import org.agrona.collections.Long2LongHashMap;

/**
 * Removes rows from one table: the idle ones ({@link io.jvmps.common.sparse.RowLifecycle#evictAfterSteps}) and, when
 * a push's new rows do not fit the memory cap, the least valuable ones
 * ({@link io.jvmps.common.sparse.RowLifecycle#evictWhenFull}). Removal packs the rows (the last moves into the freed
 * place) and keeps the id-to-row index in step. Not thread-safe: called under the table's write lock.
 */
final class RowRemoval {
    private final RowBlocks blocks;
    private final Long2LongHashMap rowOf;
    private final MemoryBudget budget;
    private final TableLifecycle life;

    RowRemoval(RowBlocks blocks, Long2LongHashMap rowOf, MemoryBudget budget, TableLifecycle life) {
        this.blocks = blocks;
        this.rowOf = rowOf;
        this.budget = budget;
        this.life = life;
    }

    /**
     * Makes room for {@code fresh} new rows in the capacity this table already holds by removing its least valuable
     * rows ({@link LeastValuableRows}), never one of the push's own ({@code found}): as many as the room needs plus
     * a thirty-second of the table, so the next pushes find room too.
     *
     * @return false, removing nothing, when the table's other rows cannot make the room
     */
    boolean makeRoom(int fresh, long[] found) {
        java.util.BitSet mine = new java.util.BitSet(blocks.rows());
        for (long row : found) {
            if (row >= 0) {
                mine.set((int) row);
            }
        }
        long free = blocks.capacity() - blocks.rows();
        long wanted = fresh - free + Math.max(fresh, blocks.rows() / 32L);
        int removable = blocks.rows() - mine.cardinality();
        if (fresh - free > removable) {
            return false;
        }
        java.util.BitSet remove = LeastValuableRows.select(blocks, (int) Math.min(wanted, removable), mine);
        int removed = 0;
        for (int row = remove.length() - 1; row >= 0; row = remove.previousSetBit(row - 1)) {
            rowOf.remove(blocks.id(row));
            if (blocks.removeSwap(row)) {
                rowOf.put(blocks.id(row), row);
            }
            removed++;
        }
        life.evicted(removed);
        return true;
    }

    /** Removes every row last touched before {@code cutoff}, packing the rest, and gives back emptied blocks. */
    void idleBefore(long cutoff) {
        int removed = 0;
        for (int row = blocks.rows() - 1; row >= 0; row--) { // rows above have been looked at: the moved one is kept
            if (blocks.touched(row) < cutoff) {
                rowOf.remove(blocks.id(row));
                if (blocks.removeSwap(row)) {
                    rowOf.put(blocks.id(row), row);
                }
                removed++;
            }
        }
        if (removed > 0) {
            budget.release(blocks.trim());
            life.evicted(removed);
        }
    }
}
