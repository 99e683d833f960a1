package io.jvmps.worker.allreduce;

import io.jvmps.client.allreduce.AllReduceEndpoint;
import io.jvmps.client.allreduce.AllReduceMailbox;
import io.jvmps.client.transport.TcpClients;

import java.time.Duration;

/**
 * The stock worker's AllReduce endpoint for the library: its own RSocket server ({@code spring.rsocket.server.port},
 * TLS when the cluster has a bundle), whose {@link AllReduceController} delivers into the worker's mailbox; the
 * ring reaches the peers' servers the same way. Closing it leaves the server running (Spring owns it).
 * Thread-safe.
 */
public final class WorkerRingEndpoint implements AllReduceEndpoint {
    private final WorkerRSocketPort port;
    private final AllReduceMailbox mailbox;
    private final TcpClients transport;
    private final Duration startTimeout;

    /**
     * @param port         the worker's RSocket server's port, once it has started
     * @param mailbox      where its AllReduce route delivers
     * @param transport    plain TCP or TLS, as the cluster's nodes are configured
     * @param startTimeout how long {@link #port} waits for the server to start
     */
    public WorkerRingEndpoint(WorkerRSocketPort port, AllReduceMailbox mailbox, TcpClients transport,
                              Duration startTimeout) {
        this.port = port;
        this.mailbox = mailbox;
        this.transport = transport;
        this.startTimeout = startTimeout;
    }

    /** @throws io.jvmps.common.protocol.PsException NOT_READY when the server did not start in time */
    @Override
    public int port() {
        return port.await(startTimeout);
    }

    @Override
    public AllReduceMailbox mailbox() {
        return mailbox;
    }

    @Override
    public TcpClients peerTransport() {
        return transport;
    }

    /** Nothing to unbind: the worker's RSocket server lives as long as the worker. */
    @Override
    public void close() {
    }
}
