package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;

/**
 * How a stream that hit {@code ps.server.stream-idle-timeout} is reported: once at WARN on the route's own
 * logger, naming the peer, and to the requester as {@code [TIMEOUT] what}. Stateless.
 */
final class Stalls {
    private Stalls() {
    }

    /**
     * @param log  the logger of the component whose stream stalled
     * @param what what stalled and what was done about it
     * @param peer the requester's address ({@link io.jvmps.common.security.PeerAddresses#current()}, captured
     *             while its frame was handled)
     * @return the error for the requester
     */
    static PsException report(Logger log, String what, String peer) {
        log.warn("{} (peer {})", what, peer);
        return new PsException(ErrorCode.TIMEOUT, what);
    }
}
