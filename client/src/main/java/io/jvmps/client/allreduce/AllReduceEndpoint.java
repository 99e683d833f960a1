package io.jvmps.client.allreduce;

import io.jvmps.client.transport.TcpClients;

/**
 * Where a worker's ring AllReduce neighbours deliver their segments: a bound port announced to the scheduler at
 * registration, the mailbox the segments land in, and how this worker connects to its peers' endpoints (plain TCP
 * or TLS, as theirs accept). {@link RingEndpoint} is the library's own; a service that already runs an RSocket
 * server (the stock worker) hands {@link io.jvmps.client.PsJob#join} its own instead. Implementations are
 * thread-safe.
 */
public interface AllReduceEndpoint extends AutoCloseable {
    /** @return the bound port the peers connect to */
    int port();

    /** @return where the segments from the left neighbour land */
    AllReduceMailbox mailbox();

    /** @return how this worker's ring connects to its peers' endpoints */
    TcpClients peerTransport();

    /** Unbinds the endpoint if this object owns it (a service's own server stays up). */
    @Override
    void close();
}
