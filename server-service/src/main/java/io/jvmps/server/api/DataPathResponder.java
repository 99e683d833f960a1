package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.util.DefaultPayload;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.messaging.rsocket.PayloadUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;

/**
 * The one dispatcher of the data routes, in front of Spring's responder: {@value Routes#DENSE_INIT}
 * (request-channel) to {@link DenseInit}, {@value Routes#DENSE_PUSH} (request-response or request-channel) to
 * {@link DensePush}, {@value Routes#DENSE_PULL} (request-stream) to {@link DensePull}, {@value Routes#SPARSE_PULL}
 * and {@value Routes#SPARSE_PUSH} (request-response) to {@link SparseController}. Every other request (the control
 * routes: join, recover, declare, status, describe), or one whose metadata it cannot read, goes to Spring's
 * responder unchanged. Errors go out as application errors {@code [CODE] detail}, acknowledgements as the JSON
 * Spring's encoder writes for {@link PushAck}.
 * Small requests spend most of a server's CPU in Spring's dispatch (argument resolution, message headers,
 * encoders); this is what the data path saves. Stateless apart from the wrapped responder; one per connection.
 */
public final class DataPathResponder extends io.rsocket.util.RSocketProxy {
    private final DataHandlers handlers;
    private final NettyDataBufferFactory buffers;

    /**
     * @param spring   Spring's responder for the connection: every request the data path does not take
     * @param handlers the handlers of the data routes
     * @param buffers  wraps payload bytes as data buffers without a copy
     * @return the responder to use for the connection
     */
    public static RSocket wrap(RSocket spring, DataHandlers handlers, NettyDataBufferFactory buffers) {
        return new DataPathResponder(spring, handlers, buffers);
    }

    private DataPathResponder(RSocket spring, DataHandlers handlers, NettyDataBufferFactory buffers) {
        super(spring);
        this.handlers = handlers;
        this.buffers = buffers;
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        String route = route(payload);
        if (Routes.DENSE_PUSH.equals(route)) {
            return answer(handlers.push().push(PayloadUtils.retainDataAndReleasePayload(payload, buffers)));
        }
        if (Routes.SPARSE_PULL.equals(route)) {
            return handlers.sparse().pull(PayloadUtils.retainDataAndReleasePayload(payload, buffers))
                    .map(PayloadUtils::createPayload).onErrorMap(DataPathResponder::applicationError);
        }
        if (Routes.SPARSE_PUSH.equals(route)) {
            return answer(handlers.sparse().push(PayloadUtils.retainDataAndReleasePayload(payload, buffers)));
        }
        return source.requestResponse(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        if (!Routes.DENSE_PULL.equals(route(payload))) {
            return source.requestStream(payload);
        }
        DataBuffer request = PayloadUtils.retainDataAndReleasePayload(payload, buffers);
        return handlers.pull().pull(request).map(PayloadUtils::createPayload).onErrorMap(DataPathResponder::applicationError);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads).switchOnFirst((first, all) -> {
            Payload head = first.get();
            String route = head == null ? null : route(head);
            if (Routes.DENSE_PUSH.equals(route)) {
                return answer(handlers.push().push(frames(all))).flux();
            }
            if (Routes.DENSE_INIT.equals(route)) {
                return answer(handlers.init().init(frames(all))).flux();
            }
            return source.requestChannel(all);
        });
    }

    /**
     * A requester with nothing to send still sends one payload, for the route: metadata, no data (as Spring's
     * dispatch does, such payloads carry no frame); the filter's discard hook releases them, once.
     */
    private Flux<DataBuffer> frames(Flux<Payload> payloads) {
        return payloads.filter(p -> p.data().isReadable())
                .map(p -> PayloadUtils.retainDataAndReleasePayload(p, buffers))
                .doOnDiscard(Payload.class, io.netty.util.ReferenceCountUtil::safeRelease);
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

    /** @return the payload's route, or null when it has none or is unreadable (Spring's responder answers then) */
    static String route(Payload payload) {
        return io.jvmps.common.codec.RouteMetadata.route(payload);
    }
}
