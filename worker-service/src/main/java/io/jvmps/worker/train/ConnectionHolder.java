package io.jvmps.worker.train;

import io.jvmps.client.transport.ServerConnections;

/** The worker's current connections to the servers, replaced after a recovery; closes whichever it holds. */
final class ConnectionHolder implements AutoCloseable {
    private ServerConnections current;

    ConnectionHolder(ServerConnections first) {
        this.current = first;
    }

    /** @return the connections held now */
    ServerConnections current() {
        return current;
    }

    void replace(ServerConnections next) {
        close();
        current = next;
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
