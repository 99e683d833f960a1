package io.jvmps.scheduler.web;

import java.util.Map;

/**
 * Body of {@code GET /api/v1/status}: a one-glance summary of the scheduler.
 *
 * @param role       always {@code scheduler}
 * @param epoch      epoch of the cluster view
 * @param registered registered nodes per role label, any state
 * @param alive      ALIVE nodes per role label
 * @param expected   expected nodes per role label
 * @param complete   true once every expected node has registered
 * @param job        job state: WAITING, RUNNING or FINISHED
 */
public record SchedulerStatus(String role, long epoch, Map<String, Integer> registered, Map<String, Integer> alive,
                              Map<String, Integer> expected, boolean complete, String job) {
}
