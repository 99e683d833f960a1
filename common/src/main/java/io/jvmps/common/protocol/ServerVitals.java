package io.jvmps.common.protocol;

/**
 * What a server reports about itself with each heartbeat, for the servers panel of the scheduler's dashboard: the
 * JSON body of {@code PUT /api/v1/nodes/{nodeId}/heartbeat} (workers send none). Immutable.
 *
 * @param heapUsedBytes        JVM heap in use, bytes, &gt;= 0
 * @param heapMaxBytes         the heap's limit, bytes, &gt;= 0 (0: unknown)
 * @param pushP99Seconds       99th percentile of the time a successful dense push took on this server over the
 *                             last minute or two, seconds; -1 before the first push
 * @param pullP99Seconds       the same for dense pulls (including their wait for versions); -1 before the first
 * @param checkpointStep       step of the newest checkpoint this server wrote or restored; -1 for none
 * @param checkpointAgeSeconds seconds since this server last finished writing a checkpoint; -1 for none yet
 * @param stalenessServed      SSP: the largest gap between a served pull's step and the slowest live worker's
 *                             clock so far, &gt;= 0; 0 in the other modes
 * @param sparseTables         this server's share of each sparse table (rows, bytes, rows admitted and evicted,
 *                             gradients dropped), by name; at most {@value #MAX_TABLES}; null = none
 */
public record ServerVitals(long heapUsedBytes, long heapMaxBytes, double pushP99Seconds, double pullP99Seconds,
                           long checkpointStep, double checkpointAgeSeconds, long stalenessServed,
                           java.util.List<io.jvmps.common.sparse.SparseTableStatus> sparseTables) {
    /** Most sparse tables one report lists. */
    public static final int MAX_TABLES = 1024;

    /** Takes a copy of the table list (null: none). */
    public ServerVitals {
        sparseTables = sparseTables == null ? java.util.List.of() : java.util.List.copyOf(sparseTables);
    }

    /** A report of a server without sparse tables. */
    public ServerVitals(long heapUsedBytes, long heapMaxBytes, double pushP99Seconds, double pullP99Seconds,
                        long checkpointStep, double checkpointAgeSeconds, long stalenessServed) {
        this(heapUsedBytes, heapMaxBytes, pushP99Seconds, pullP99Seconds, checkpointStep, checkpointAgeSeconds,
                stalenessServed, java.util.List.of());
    }

    /** @throws PsException INVALID_ARGUMENT naming the first field out of its range; nothing is recorded then */
    public void requireValid() {
        String problem = heapUsedBytes < 0 ? "heapUsedBytes must be >= 0, got " + heapUsedBytes
                : heapMaxBytes < 0 ? "heapMaxBytes must be >= 0, got " + heapMaxBytes
                : !timeOrNone(pushP99Seconds) ? "pushP99Seconds must be >= 0 or -1 (none), got " + pushP99Seconds
                : !timeOrNone(pullP99Seconds) ? "pullP99Seconds must be >= 0 or -1 (none), got " + pullP99Seconds
                : checkpointStep < -1 ? "checkpointStep must be >= -1, got " + checkpointStep
                : !timeOrNone(checkpointAgeSeconds) ? "checkpointAgeSeconds must be >= 0 or -1 (none), got "
                        + checkpointAgeSeconds
                : stalenessServed < 0 ? "stalenessServed must be >= 0, got " + stalenessServed
                : sparseTables.size() > MAX_TABLES ? "sparseTables lists " + sparseTables.size() + " tables, at most "
                        + MAX_TABLES
                : sparseTables.stream().map(ServerVitals::badTable).filter(java.util.Objects::nonNull).findFirst()
                        .orElse(null);
        if (problem != null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "heartbeat body: " + problem);
        }
    }

    private static String badTable(io.jvmps.common.sparse.SparseTableStatus t) {
        if (t == null || t.name() == null || t.name().isEmpty() || t.name().length() > 64) {
            return "sparseTables holds a table without a name of 1..64 characters";
        }
        return t.rows() < 0 || t.bytes() < 0 || t.pushes() < 0 || t.admitted() < 0 || t.evicted() < 0
                || t.dropped() < 0 ? "sparse table '" + t.name() + "' reports a negative count" : null;
    }

    private static boolean timeOrNone(double seconds) {
        return Double.isFinite(seconds) && (seconds >= 0 || seconds == -1);
    }
}
