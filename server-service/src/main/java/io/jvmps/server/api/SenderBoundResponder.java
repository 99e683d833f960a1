package io.jvmps.server.api;

import io.jvmps.common.cluster.NodeInfo;
import io.jvmps.common.codec.SliceRequestCodec;
import io.jvmps.common.codec.TensorChunkCodec;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sparse.SparseCodec;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.exceptions.ApplicationErrorException;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * The responder of one connection that a worker opened after proving its identity ({@link io.jvmps.common.security.NodeIdentityCheck}):
 * every request that names a sender must name that worker. Tensor frames of an init or push (each frame of a
 * packed payload and of a streamed channel), the sender of a dense pull and of a sparse pull or push, and the rank
 * and node id of a join; a request that names another rank or node is answered {@code [UNAUTHENTICATED]} before
 * any handler sees it, so it changes nothing. A request it cannot read goes on unchanged, to be refused by its
 * handler with the usual error. The first refusal on a connection is logged at WARN. One per connection.
 */
public final class SenderBoundResponder extends io.rsocket.util.RSocketProxy {
    private static final Logger log = LoggerFactory.getLogger(SenderBoundResponder.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final NodeInfo worker;
    private final String peer;
    private final AtomicBoolean warned = new AtomicBoolean();

    private SenderBoundResponder(RSocket delegate, NodeInfo worker, String peer) {
        super(delegate);
        this.worker = worker;
        this.peer = peer;
    }

    /**
     * @param handler the connection's responder
     * @param worker  the worker that opened the connection, as the scheduler confirmed it
     * @param peer    the connection's remote address, for the log
     * @return {@code handler} with every request bound to {@code worker}
     */
    public static RSocket bind(RSocket handler, NodeInfo worker, String peer) {
        return new SenderBoundResponder(handler, worker, peer);
    }

    /**
     * Wraps a connection's responder by {@code wrapper} inside the binding, so that the binding still sees every
     * request first; a responder without a binding is just wrapped.
     */
    public static RSocket inside(RSocket handler, UnaryOperator<RSocket> wrapper) {
        if (handler instanceof SenderBoundResponder bound) {
            return new SenderBoundResponder(wrapper.apply(bound.source), bound.worker, bound.peer);
        }
        return wrapper.apply(handler);
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        String refusal = refusal(payload, DataPathResponder.route(payload));
        return refusal == null ? source.fireAndForget(payload) : Mono.error(refused(payload, refusal));
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        String refusal = refusal(payload, DataPathResponder.route(payload));
        return refusal == null ? source.requestResponse(payload) : Mono.error(refused(payload, refusal));
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        String refusal = refusal(payload, DataPathResponder.route(payload));
        return refusal == null ? source.requestStream(payload) : Flux.error(refused(payload, refusal));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads).switchOnFirst((first, inbound) -> {
            if (!first.hasValue()) {
                return source.requestChannel(inbound);
            }
            String route = DataPathResponder.route(first.get());
            if (!Routes.DENSE_PUSH.equals(route) && !Routes.DENSE_INIT.equals(route)) {
                return source.requestChannel(inbound);
            }
            String firstRefusal = refusal(first.get(), route);
            if (firstRefusal != null) { // no handler sees the channel: read it to its end, then answer
                warnOnce(firstRefusal);
                return inbound.doOnNext(Payload::release).thenMany(Flux.error(
                        new ApplicationErrorException("[" + ErrorCode.UNAUTHENTICATED + "] " + firstRefusal)));
            }
            // a later frame as another rank is left out and fails the request once the channel has ended, so its
            // handler applies nothing whole and never sees that frame
            String[] later = new String[1];
            return source.requestChannel(inbound.concatMap(payload -> {
                String refusal = later[0] == null ? refusal(payload, route) : later[0];
                if (refusal == null) {
                    return Mono.just(payload);
                }
                later[0] = refusal;
                payload.release(); // not emitted, so no discard hook downstream sees it
                return Mono.<Payload>empty();
            }, 0).concatWith(Mono.defer(() -> {
                if (later[0] == null) {
                    return Mono.empty();
                }
                warnOnce(later[0]);
                return Mono.error(new PsException(ErrorCode.UNAUTHENTICATED, later[0]));
            })));
        });
    }





    /** @return why the request may not go on, or null when it names this worker, names nobody, or cannot be read */
    private String refusal(Payload payload, String route) {
        if (route == null) {
            return null;
        }
        try {
            switch (route) {
                case Routes.DENSE_PUSH, Routes.DENSE_INIT -> {
                    for (int sender : TensorChunkCodec.sendersOf(payload.sliceData())) {
                        if (sender != worker.rank()) {
                            return asOther("worker rank " + sender, route);
                        }
                    }
                    return null;
                }
                case Routes.DENSE_PULL -> {
                    int sender = SliceRequestCodec.decode(payload.sliceData()).sender();
                    return sender == worker.rank() ? null : asOther("worker rank " + sender, route);
                }
                case Routes.SPARSE_PULL, Routes.SPARSE_PUSH -> {
                    int sender = SparseCodec.senderOf(payload.sliceData());
                    return sender == worker.rank() ? null : asOther("worker rank " + sender, route);
                }
                case Routes.JOIN -> {
                    return joinRefusal(payload);
                }
                default -> {
                    return null;
                }
            }
        } catch (PsException unreadable) {
            return null; // its handler answers MALFORMED_FRAME
        }
    }

    private String joinRefusal(Payload payload) {
        JsonNode join;
        try {
            join = JSON.readTree(payload.getDataUtf8());
        } catch (RuntimeException unreadable) {
            return null;
        }
        JsonNode rank = join.path("rank");
        if (rank.isIntegralNumber() && rank.asLong() != worker.rank()) {
            return asOther("worker rank " + rank.asLong(), Routes.JOIN);
        }
        JsonNode nodeId = join.path("nodeId");
        if (nodeId.isString() && !nodeId.asString().equals(worker.nodeId())) {
            return asOther("node " + nodeId.asString(), Routes.JOIN);
        }
        return null;
    }

    private String asOther(String claimed, String route) {
        return "this connection belongs to worker rank " + worker.rank() + " (" + worker.nodeId() + "); a "
                + route + " request as " + claimed + " is refused";
    }

    private ApplicationErrorException refused(Payload payload, String refusal) {
        payload.release();
        warnOnce(refusal);
        return new ApplicationErrorException("[" + ErrorCode.UNAUTHENTICATED + "] " + refusal);
    }

    private void warnOnce(String refusal) {
        if (warned.compareAndSet(false, true)) {
            log.warn("Refused a request from {}: {} (later refusals on this connection are logged at DEBUG)", peer,
                    refusal);
        } else {
            log.debug("Refused a request from {}: {}", peer, refusal);
        }
    }
}
