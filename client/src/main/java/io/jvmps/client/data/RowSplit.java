package io.jvmps.client.data;

import io.jvmps.common.sparse.RowPlacement;

import java.util.ArrayList;
import java.util.List;

/**
 * A request's ids cut by owning server ({@link RowPlacement}) and then into frames of at most
 * {@code maxRows} rows. Each part remembers the positions of its ids in the caller's array, so answers
 * land where the caller expects them.
 *
 * @param server    owning server rank
 * @param positions positions in the caller's id array, in order
 */
record RowSplit(int server, int[] positions) {

    /**
     * @param ids     the caller's ids
     * @param servers number of servers
     * @param maxRows most rows per part, &gt;= 1
     * @return the parts, servers in rank order, none empty
     */
    static List<RowSplit> of(long[] ids, int servers, int maxRows) {
        int[] counts = new int[servers];
        int[] owner = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            owner[i] = RowPlacement.serverOf(ids[i], servers);
            counts[owner[i]]++;
        }
        int[][] byServer = new int[servers][];
        for (int s = 0; s < servers; s++) {
            byServer[s] = new int[counts[s]];
        }
        int[] filled = new int[servers];
        for (int i = 0; i < ids.length; i++) {
            byServer[owner[i]][filled[owner[i]]++] = i;
        }
        List<RowSplit> parts = new ArrayList<>();
        for (int s = 0; s < servers; s++) {
            for (int from = 0; from < counts[s]; from += maxRows) {
                int to = Math.min(counts[s], from + maxRows);
                parts.add(new RowSplit(s, java.util.Arrays.copyOfRange(byServer[s], from, to)));
            }
        }
        return parts;
    }

    /** @return the ids at this part's positions */
    long[] ids(long[] all) {
        long[] out = new long[positions.length];
        for (int i = 0; i < positions.length; i++) {
            out[i] = all[positions[i]];
        }
        return out;
    }
}
