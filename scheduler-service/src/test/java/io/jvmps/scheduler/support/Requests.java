package io.jvmps.scheduler.support;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.RegisterRequest;

/** Registration requests for tests. */
public final class Requests {
    private Requests() {
    }

    /** @return a first registration of a server on the given RSocket port */
    public static RegisterRequest server(int rsocketPort) {
        return new RegisterRequest(NodeRole.SERVER, "10.0.0.1", rsocketPort, 8081, null);
    }

    /** @return a first registration of a worker */
    public static RegisterRequest worker() {
        return new RegisterRequest(NodeRole.WORKER, "10.0.0.2", 0, 8082, null);
    }

    /** @return a re-registration of a node that had {@code previousNodeId} */
    public static RegisterRequest again(RegisterRequest original, String previousNodeId) {
        return new RegisterRequest(original.role(), original.host(), original.rsocketPort(), original.httpPort(),
                previousNodeId);
    }
}
