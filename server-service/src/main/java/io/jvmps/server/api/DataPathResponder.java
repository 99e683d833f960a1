package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.util.DefaultPayload;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.messaging.rsocket.PayloadUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;

/**
 * The data path without Spring's message dispatch: a responder in front of Spring's that hands push and pull
 * requests ({@value Routes#DENSE_PUSH} as request-response or request-channel, {@value Routes#DENSE_PULL} as
 * request-stream) straight to {@link DenseController}, the sparse ones ({@value Routes#SPARSE_PULL},
 * {@value Routes#SPARSE_PUSH}, request-response) to {@link SparseController}, and every other request, or one
 * whose metadata it cannot read, to Spring's responder unchanged. Validation, metrics and answers are the
 * controllers', so the two paths cannot drift: errors go out as application errors {@code [CODE] detail},
 * acknowledgements as the same JSON.
 * Small requests spend most of a server's CPU in the dispatch (argument resolution, message headers, encoders);
 * this is what the data path saves. Stateless apart from the wrapped responder; one per connection.
 */
public final class DataPathResponder extends io.rsocket.util.RSocketProxy {
    private static final String ROUTING = WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString();

    private final DenseController dense;
    private final SparseController sparse;
    private final NettyDataBufferFactory buffers;

    /**
     * @param spring  Spring's responder for the connection: every request the data path does not take
     * @param dense   the dense push and pull handlers
     * @param sparse  the sparse pull and push handlers
     * @param buffers wraps payload bytes as data buffers without a copy
     * @return the responder to use for the connection
     */
    public static RSocket wrap(RSocket spring, DenseController dense, SparseController sparse,
                               NettyDataBufferFactory buffers) {
        return new DataPathResponder(spring, dense, sparse, buffers);
    }

    private DataPathResponder(RSocket spring, DenseController dense, SparseController sparse,
                              NettyDataBufferFactory buffers) {
        super(spring);
        this.dense = dense;
        this.sparse = sparse;
        this.buffers = buffers;
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        String route = route(payload);
        if (Routes.DENSE_PUSH.equals(route)) {
            return answer(dense.pushOnePayload(PayloadUtils.retainDataAndReleasePayload(payload, buffers)));
        }
        if (Routes.SPARSE_PULL.equals(route)) {
            return sparse.pull(PayloadUtils.retainDataAndReleasePayload(payload, buffers))
                    .map(PayloadUtils::createPayload).onErrorMap(DataPathResponder::applicationError);
        }
        if (Routes.SPARSE_PUSH.equals(route)) {
            return answer(sparse.push(PayloadUtils.retainDataAndReleasePayload(payload, buffers)));
        }
        return source.requestResponse(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        if (!Routes.DENSE_PULL.equals(route(payload))) {
            return source.requestStream(payload);
        }
        DataBuffer request = PayloadUtils.retainDataAndReleasePayload(payload, buffers);
        return dense.pull(request).map(PayloadUtils::createPayload).onErrorMap(DataPathResponder::applicationError);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads).switchOnFirst((first, all) -> {
            Payload head = first.get();
            if (head == null || !Routes.DENSE_PUSH.equals(route(head))) {
                return source.requestChannel(all);
            }
            // a requester with nothing to send still sends one payload, for the route: metadata, no data (as Spring's
            // dispatch does, such payloads carry no frame); the filter's discard hook below releases them, once
            return answer(dense.push(all.filter(p -> p.data().isReadable())
                    .map(p -> PayloadUtils.retainDataAndReleasePayload(p, buffers))
                    .doOnDiscard(Payload.class, io.netty.util.ReferenceCountUtil::safeRelease))).flux();
        });
    }






    private static Mono<Payload> answer(Mono<PushAck> ack) {
        return ack.map(a -> DefaultPayload.create(json(a).getBytes(StandardCharsets.UTF_8)))
                .onErrorMap(DataPathResponder::applicationError);
    }

    /** @return the acknowledgement as the JSON object Spring's encoder writes for the record */
    static String json(PushAck a) {
        return "{\"server\":" + a.server() + ",\"step\":" + a.step() + ",\"slices\":" + a.slices() + ",\"elements\":"
                + a.elements() + "}";
    }

    private static Throwable applicationError(Throwable e) {
        return e instanceof ApplicationErrorException ? e
                : new ApplicationErrorException(RSocketErrorAdvice.forRequester(e).getMessage());
    }

    /** @return the request's route, or null when its metadata has none or cannot be read (Spring answers then) */
    /** @return the payload's route (its routing metadata's first tag), or null when it has none or is unreadable */
    static String route(Payload payload) {
        if (!payload.hasMetadata()) {
            return null;
        }
        try {
            ByteBuf metadata = payload.sliceMetadata();
            for (CompositeMetadata.Entry entry : new CompositeMetadata(metadata, false)) {
                if (ROUTING.equals(entry.getMimeType())) {
                    for (String tag : new RoutingMetadata(entry.getContent())) {
                        return tag;
                    }
                }
            }
        } catch (RuntimeException unreadable) {
            return null;
        }
        return null;
    }
}
