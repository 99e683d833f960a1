package io.jvmps.common.security;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.cluster.SchedulerClient;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.rsocket.ConnectionSetupPayload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.exceptions.RejectedSetupException;
import io.rsocket.plugins.SocketAcceptorInterceptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.Objects;

/**
 * Accepts an RSocket connection only from a registered worker that proves who it is: its SETUP metadata must
 * carry a {@link NodeToken#SETUP_MIME_TYPE} entry ({@code <nodeId> <token>}), and the scheduler must confirm that
 * the token is that node's and that the node is a worker. The accepted connection's responder is then handed to
 * a {@link Binding} with the confirmed node (a server binds every request to that worker's rank). A refusal is a
 * REJECTED_SETUP error {@code [UNAUTHENTICATED] ...} ({@code [NOT_READY]} while the scheduler cannot be asked,
 * which the caller retries), logged with the peer's address and never the token. Installed on every node that
 * takes workers' connections and has a scheduler: servers, and workers' AllReduce endpoints. Stateless and
 * thread-safe.
 */
public final class NodeIdentityCheck implements SocketAcceptorInterceptor {
    private static final Logger log = LoggerFactory.getLogger(NodeIdentityCheck.class);

    /** What an accepted connection's requests are bound to. */
    @FunctionalInterface
    public interface Binding {
        /**
         * @param handler the responder of the accepted connection
         * @param worker  the worker the scheduler confirmed
         * @param peer    the connection's remote address, for logs
         * @return the responder to use instead
         */
        RSocket bind(RSocket handler, NodeInfo worker, String peer);

        /** Accepts the connection's requests as they are. */
        Binding NONE = (handler, worker, peer) -> handler;
    }

    private final SchedulerClient scheduler;
    private final String takers;
    private final Binding binding;

    /**
     * @param scheduler asked to confirm each connection's node identity (a blocking call, made off the event loop)
     * @param takers    who takes the connections, for messages, e.g. "this job's servers"
     * @param binding   applied to every accepted connection
     */
    public NodeIdentityCheck(SchedulerClient scheduler, String takers, Binding binding) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.takers = Objects.requireNonNull(takers, "takers");
        this.binding = Objects.requireNonNull(binding, "binding");
    }

    @Override
    public SocketAcceptor apply(SocketAcceptor next) {
        return (setup, sendingSocket) -> {
            String peer = PeerAddresses.current();
            String[] identity = SetupSecretInterceptor.entry(setup, NodeToken.SETUP_MIME_TYPE)
                    .map(value -> value.split(" ", -1)).orElse(null);
            if (identity == null || identity.length != 2 || identity[0].isBlank() || identity[1].isBlank()) {
                return refuse(peer, ErrorCode.UNAUTHENTICATED, (identity == null ? "no" : "a malformed")
                        + " node identity in the RSocket SETUP metadata: " + takers + " take connections from the "
                        + "job's registered workers only (entry " + NodeToken.SETUP_MIME_TYPE + ": the node id and "
                        + "token the scheduler's registration answered)");
            }
            String nodeId = identity[0];
            return Mono.fromCallable(() -> scheduler.verifyNode(nodeId, identity[1]))
                    .subscribeOn(Schedulers.boundedElastic())
                    .onErrorResume(PsException.class, e -> refuse(peer, e.code() == ErrorCode.NOT_READY
                                    || e.code() == ErrorCode.TIMEOUT ? ErrorCode.NOT_READY : ErrorCode.UNAUTHENTICATED,
                            "the scheduler did not confirm node " + nodeId + ": " + e.detail()))
                    .onErrorResume(e -> !(e instanceof RejectedSetupException), e -> refuse(peer, ErrorCode.NOT_READY,
                            "could not ask the scheduler about node " + nodeId + ": " + e))
                    .flatMap(node -> accept(node, peer, next, setup, sendingSocket));
        };
    }

    private Mono<RSocket> accept(NodeInfo node, String peer, SocketAcceptor next, ConnectionSetupPayload setup,
                                 RSocket sendingSocket) {
        if (node.role() != NodeRole.WORKER) {
            return refuse(peer, ErrorCode.UNAUTHENTICATED, "node " + node.nodeId() + " is a "
                    + node.role().label() + "; only workers connect to " + takers);
        }
        log.debug("Connection from {} is worker rank {} ({})", peer, node.rank(), node.nodeId());
        return next.accept(setup, sendingSocket).map(handler -> binding.bind(handler, node, peer));
    }

    private static <T> Mono<T> refuse(String peer, ErrorCode code, String reason) {
        log.warn("Rejected an RSocket connection from {}: {}", peer, reason);
        return Mono.error(new RejectedSetupException("[" + code + "] " + reason));
    }
}
