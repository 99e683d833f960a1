package io.jvmps.common.protocol;

/**
 * A server's answer to a {@link RecoverRequest}.
 *
 * @param rank       the answering server's rank
 * @param latestStep the newest complete checkpoint in the server's {@code ps.checkpoint.dir}; -1 if none
 * @param step       the step the server's slices are at after the request (the rollback's step); when the
 *                   request only asked, the step this server already rolled back to (or restored at start)
 *                   for the asked server set, -1 if none
 * @param rolledBack true when this request rolled the server back (false for a repeat or a question)
 */
public record RecoverAnswer(int rank, long latestStep, long step, boolean rolledBack) {
}
