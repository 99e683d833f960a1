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
 */
public record ServerVitals(long heapUsedBytes, long heapMaxBytes, double pushP99Seconds, double pullP99Seconds,
                           long checkpointStep, double checkpointAgeSeconds, long stalenessServed) {

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
                : null;
        if (problem != null) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "heartbeat body: " + problem);
        }
    }

    private static boolean timeOrNone(double seconds) {
        return Double.isFinite(seconds) && (seconds >= 0 || seconds == -1);
    }
}
