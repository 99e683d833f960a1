package io.jvmps.client.transport;

/**
 * A worker's current connections to the servers, replaced after a recovery; closes whichever it holds.
 * Not thread-safe: the training thread owns it.
 */
public final class ConnectionHolder implements AutoCloseable {
    private ServerConnections current;

    /** @param first the connections held at first */
    public ConnectionHolder(ServerConnections first) {
        this.current = first;
    }

    /** @return the connections held now */
    public ServerConnections current() {
        return current;
    }

    /** Closes the connections held and holds {@code next} instead. */
    public void replace(ServerConnections next) {
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
