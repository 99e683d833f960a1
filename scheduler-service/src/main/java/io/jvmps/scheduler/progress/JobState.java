package io.jvmps.scheduler.progress;

/** Phase of the job as served in {@code JobStatus.state}. */
public enum JobState {
    /** Not every expected server and worker has registered yet. */
    WAITING,
    /** Everyone registered; not every worker has reported a final result. */
    RUNNING,
    /** Every expected worker reported a final result or was dropped (DEAD) while the others finished. */
    FINISHED,
    /** A node reported that the job cannot go on (e.g. a server's parameters were lost without a checkpoint). */
    FAILED
}
