package io.jvmps.server.sparse;

import java.util.Arrays;
import java.util.BitSet;

/**
 * Picks the rows a full table gives up first: fewest gradient updates first (counts above {@value #CAP} count
 * alike), and among rows with as many updates, the longest idle (the oldest last-touched clock; in row order when
 * the table keeps no clocks). Two passes over the rows and a sort of one update count's clocks. Stateless.
 */
final class LeastValuableRows {
    /** Update counts above this rank alike. */
    static final int CAP = 255;

    private LeastValuableRows() {
    }

    /**
     * @param blocks the table's rows
     * @param count  rows to pick, at most the rows not in {@code keep}
     * @param keep   rows that must not be picked
     * @return the picked rows
     */
    static BitSet select(RowBlocks blocks, int count, BitSet keep) {
        int rows = blocks.rows();
        int[] histogram = new int[CAP + 1];
        for (int row = 0; row < rows; row++) {
            if (!keep.get(row)) {
                histogram[bucket(blocks, row)]++;
            }
        }
        int cutBucket = 0;
        int below = 0;
        while (cutBucket < CAP && below + histogram[cutBucket] < count) {
            below += histogram[cutBucket++];
        }
        int fromCut = count - below;
        long cutClock = Long.MAX_VALUE;
        if (blocks.tracksTouch() && fromCut > 0) {
            long[] clocks = new long[histogram[cutBucket]];
            int n = 0;
            for (int row = 0; row < rows; row++) {
                if (!keep.get(row) && bucket(blocks, row) == cutBucket) {
                    clocks[n++] = blocks.touched(row);
                }
            }
            Arrays.sort(clocks, 0, n);
            cutClock = clocks[Math.min(n, fromCut) - 1];
        }
        BitSet picked = new BitSet(rows);
        int taken = 0;
        for (int row = 0; row < rows; row++) {
            if (keep.get(row)) {
                continue;
            }
            int b = bucket(blocks, row);
            if (b < cutBucket) {
                picked.set(row);
            } else if (b == cutBucket && taken < fromCut && (!blocks.tracksTouch() || blocks.touched(row) <= cutClock)) {
                picked.set(row);
                taken++;
            }
        }
        return picked;
    }

    private static int bucket(RowBlocks blocks, int row) {
        return Math.min(CAP, blocks.updates(row));
    }
}
