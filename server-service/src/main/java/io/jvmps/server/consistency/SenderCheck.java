package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/** Validates a worker rank against the job's worker count. Stateless. */
public final class SenderCheck {
    private SenderCheck() {
    }

    /** @throws io.jvmps.common.protocol.PsException INVALID_ARGUMENT naming the rank when it is not in [0, workers) */
    public static void check(int sender, int workers) {
        if (sender < 0 || sender >= workers) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "sender rank " + sender
                    + " is outside the job's workers [0, " + workers + ") (ps.cluster.worker-num, or "
                    + "ps.cluster.max-worker-num when set)");
        }
    }
}
