package io.jvmps.common.protocol;

/**
 * A server's answer to a {@link JoinRequest}.
 *
 * @param rank       the answering server's rank
 * @param accepted   true when the worker is now expected from the requested step on
 * @param maxVersion SYNC: the highest version of this server's slices (steps {@code 0..maxVersion-1} are
 *                   applied); ASYNC and SSP: the rank's clock here (its last pushed step + 1); GEO: the
 *                   rank's round clock. When not accepted, the step (GEO: round) to ask for next
 */
public record JoinAnswer(int rank, boolean accepted, long maxVersion) {
}
