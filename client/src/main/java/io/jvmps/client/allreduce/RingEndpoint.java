package io.jvmps.client.allreduce;

import io.jvmps.common.codec.TensorChunk;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.common.security.NodeIdentityCheck;
import io.jvmps.common.security.PeerAddresses;
import io.jvmps.common.security.SetupSecretInterceptor;
import io.rsocket.Payload;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * A training program's AllReduce endpoint: a plain RSocket server that accepts connections presenting the
 * cluster secret in their SETUP frame and, when it has a scheduler to ask, a registered worker's identity
 * ({@link NodeIdentityCheck}), and takes each request-response on {@value AllReduceRoutes#SEGMENT}
 * as one segment chunk from the left neighbour into the {@link AllReduceMailbox}, answering empty. A frame
 * on another route or one that does not decode is answered with its error code and changes nothing.
 * Its port is announced to the scheduler at registration, where the peers find it. Close it to unbind: it
 * returns once the port no longer accepts connections (or after the bind timeout, with a warning).
 * Thread-safe.
 */
public final class RingEndpoint implements AllReduceEndpoint {
    private static final Logger log = LoggerFactory.getLogger(RingEndpoint.class);

    private final AllReduceMailbox mailbox;
    private final CloseableChannel channel;
    private final Duration timeout;

    private RingEndpoint(AllReduceMailbox mailbox, CloseableChannel channel, Duration timeout) {
        this.mailbox = mailbox;
        this.channel = channel;
        this.timeout = timeout;
    }

    /**
     * Binds an endpoint that checks the cluster secret only: for a ring with no scheduler to confirm identities.
     *
     * @see #bind(String, int, ClusterSecret, SchedulerClient, Duration)
     */
    public static RingEndpoint bind(String bindHost, int port, ClusterSecret secret, Duration timeout) {
        return bind(bindHost, port, secret, null, timeout);
    }

    /**
     * Binds the endpoint.
     *
     * @param bindHost  the address to bind, e.g. {@code 0.0.0.0}
     * @param port      the port, or 0 for any free one ({@link #port()} says which)
     * @param secret    the cluster secret every connection must present
     * @param scheduler asked to confirm the node identity every connection must present, or null to check the
     *                  secret only
     * @param timeout   how long binding, and later unbinding, may take
     * @throws PsException NOT_READY when the port cannot be bound in time
     */
    public static RingEndpoint bind(String bindHost, int port, ClusterSecret secret, SchedulerClient scheduler,
                                    Duration timeout) {
        AllReduceMailbox mailbox = new AllReduceMailbox();
        SocketAcceptor acceptor = SocketAcceptor.forRequestResponse(payload -> receive(mailbox, payload));
        try {
            CloseableChannel channel = RSocketServer.create(acceptor)
                    .interceptors(r -> {
                        r.forConnection(PeerAddresses.interceptor());
                        if (scheduler != null) { // registered first, so it runs after the secret check
                            r.forSocketAcceptor(new NodeIdentityCheck(scheduler, "workers' AllReduce endpoints",
                                    NodeIdentityCheck.Binding.NONE));
                        }
                        r.forSocketAcceptor(new SetupSecretInterceptor(secret));
                    })
                    .bind(TcpServerTransport.create(bindHost, port))
                    .block(timeout);
            return new RingEndpoint(mailbox, channel, timeout);
        } catch (RuntimeException e) {
            throw new PsException(ErrorCode.NOT_READY, "cannot bind the AllReduce endpoint on " + bindHost + ":" + port
                    + ": " + e.getMessage());
        }
    }

    private static Mono<Payload> receive(AllReduceMailbox mailbox, Payload payload) {
        TensorChunk chunk = null;
        try {
            String route = route(payload);
            if (!AllReduceRoutes.SEGMENT.equals(route)) {
                throw new PsException(ErrorCode.UNKNOWN_KEY, "no route '" + route + "' on an AllReduce endpoint (it "
                        + "takes " + AllReduceRoutes.SEGMENT + ")");
            }
            chunk = TensorChunkCodec.decode(payload.sliceData());
            mailbox.deliver(chunk);
            return Mono.empty();
        } catch (PsException e) {
            log.warn("Refused an AllReduce frame: {}", e.getMessage());
            return Mono.error(new ApplicationErrorException(e.getMessage()));
        } catch (RuntimeException e) {
            log.warn("Refused an AllReduce frame: {}", e.toString());
            return Mono.error(new ApplicationErrorException("[INVALID_ARGUMENT] bad AllReduce frame: " + e.getMessage()));
        } finally {
            if (chunk != null) {
                chunk.release();
            }
            payload.release();
        }
    }

    /** @return the payload's route, or "" */
    private static String route(Payload payload) {
        String route = io.jvmps.common.codec.RouteMetadata.route(payload);
        return route == null ? "" : route;
    }

    /** @return the mailbox this endpoint delivers into (the ring's inbound side) */
    @Override
    public AllReduceMailbox mailbox() {
        return mailbox;
    }

    /** @return the bound port */
    @Override
    public int port() {
        return channel.address().getPort();
    }

    /** @return plain TCP: the library's endpoints take no TLS */
    @Override
    public io.jvmps.client.transport.TcpClients peerTransport() {
        return io.jvmps.client.transport.TcpClients.PLAIN;
    }

    /** Unbinds the port and waits (up to the bind timeout) until it accepts no more connections. */
    @Override
    public void close() {
        int port = port();
        channel.dispose();
        try {
            channel.onClose().block(timeout);
        } catch (RuntimeException e) {
            log.warn("The AllReduce endpoint on port {} did not unbind within {}: {}", port, timeout, e.toString());
        }
    }
}
