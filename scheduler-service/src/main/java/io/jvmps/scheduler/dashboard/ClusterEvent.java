package io.jvmps.scheduler.dashboard;

/**
 * One line of the dashboard's "recent events".
 *
 * @param timeMillis when the scheduler noticed it (epoch milliseconds)
 * @param kind       {@code JOINED}, {@code DEAD}, {@code ALIVE}, {@code FINISHED}, {@code JOB}
 * @param message    what happened, e.g. {@code worker rank 1 (worker-1-ab12) is DEAD}
 */
public record ClusterEvent(long timeMillis, String kind, String message) {
}
