package io.jvmps.scheduler.registry;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * A registration beyond the expected number of nodes of a role while no node of that role is DEAD.
 * Code {@link ErrorCode#RESOURCE_EXHAUSTED} (no free rank, perhaps only for now: a node that replaces a
 * crashed one waits until the scheduler marks that one DEAD); the REST layer answers it with HTTP 409.
 */
public class ClusterFullException extends PsException {
    /** @param detail message naming the role, the expected and the current counts */
    public ClusterFullException(String detail) {
        super(ErrorCode.RESOURCE_EXHAUSTED, detail);
    }
}
