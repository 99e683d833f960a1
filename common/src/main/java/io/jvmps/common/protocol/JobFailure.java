package io.jvmps.common.protocol;

/**
 * A node's report that the job cannot go on, posted to {@code POST /api/v1/job/failure} (JSON). The first
 * report ends the job: its state becomes {@code FAILED} with this reason; later ones are logged and kept
 * out of the status.
 *
 * @param nodeId the reporting node's id (a registered server or worker)
 * @param reason what was lost and why the job cannot go on, for operators (1 to 2,000 characters)
 */
public record JobFailure(String nodeId, String reason) {
}
