package io.jvmps.client.control;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * The job this worker registered with has FAILED (a node reported that it cannot go on): the worker must not
 * train. Its code is {@code STATE_LOST}; {@link #reason()} is the scheduler's.
 */
public final class JobFailedException extends PsException {
    private final String reason;

    /** @param reason why the job failed, as the scheduler reports it */
    public JobFailedException(String reason) {
        super(ErrorCode.STATE_LOST, "the job has FAILED and this worker does not take part: " + reason
                + ". Start the job again (stop every node first; with checkpoints it resumes from the newest one)");
        this.reason = reason;
    }

    /** @return why the job failed */
    public String reason() {
        return reason;
    }
}
