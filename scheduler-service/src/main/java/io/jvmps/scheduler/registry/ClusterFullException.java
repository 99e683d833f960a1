package io.jvmps.scheduler.registry;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * A registration beyond the expected number of nodes of a role while no node of that role is DEAD.
 * Code {@link ErrorCode#INVALID_ARGUMENT}; the REST layer answers it with HTTP 409.
 */
public class ClusterFullException extends PsException {
    /** @param detail message naming the role, the expected and the current counts */
    public ClusterFullException(String detail) {
        super(ErrorCode.INVALID_ARGUMENT, detail);
    }
}
