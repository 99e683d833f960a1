package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.rsocket.Payload;
import io.rsocket.frame.FrameType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.rsocket.annotation.support.RSocketFrameTypeMessageCondition;
import org.springframework.messaging.rsocket.annotation.support.RSocketMessageHandler;
import org.springframework.messaging.rsocket.annotation.support.RSocketPayloadReturnValueHandler;
import org.springframework.util.RouteMatcher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Spring's RSocket dispatcher with this server's error format for a request that no route takes (no
 * route, an unknown route, or a known one with the wrong interaction): the requester gets
 * {@code [INVALID_ARGUMENT] ...} naming the route instead of Spring's bare message.
 *
 * <p>A request-channel is answered only after its inbound frames were read (and released) to their end, or
 * after {@link #CHANNEL_DRAIN_LIMIT}, as the init and push routes do with input they reject. Failing it at
 * once, as Spring does, had RSocket and Spring both release its first payload and log errors at ERROR.
 */
public final class CodedRSocketMessageHandler extends RSocketMessageHandler {
    /** Longest an unrouted channel is read before the error goes out anyway. */
    static final Duration CHANNEL_DRAIN_LIMIT = Duration.ofSeconds(30);

    @Override
    protected void handleNoMatch(RouteMatcher.Route destination, Message<?> message) {
        Object frameType = message.getHeaders().get(RSocketFrameTypeMessageCondition.FRAME_TYPE_HEADER);
        boolean answered = frameType == FrameType.REQUEST_RESPONSE || frameType == FrameType.REQUEST_STREAM
                || frameType == FrameType.REQUEST_CHANNEL;
        if (!answered) {
            super.handleNoMatch(destination, message); // SETUP, metadata push: nothing; fire-and-forget: WARN
            return;
        }
        Object unreadable = message.getHeaders().get(CodedMetadataExtractor.UNREADABLE);
        String detail = unreadable != null ? "unreadable request metadata (" + unreadable + ")"
                : destination == null || destination.value().isEmpty()
                ? "the request names no route: its metadata needs a routing entry"
                : "no " + frameType + " route '" + destination.value() + "'";
        PsException error = new PsException(ErrorCode.INVALID_ARGUMENT, detail
                + " (the server's routes and their interactions are listed in docs/protocol.md)");
        if (frameType == FrameType.REQUEST_CHANNEL && message.getPayload() instanceof Flux<?> inbound) {
            answerAfterDraining(message, inbound, error);
            return;
        }
        throw new MessageDeliveryException(message, error.getMessage());
    }

    @SuppressWarnings("unchecked")
    private static void answerAfterDraining(Message<?> message, Flux<?> inbound, PsException error) {
        var response = (AtomicReference<Flux<Payload>>) message.getHeaders().get(
                RSocketPayloadReturnValueHandler.RESPONSE_HEADER);
        if (response == null) {
            throw new MessageDeliveryException(message, error.getMessage());
        }
        Sinks.Empty<Void> drained = Sinks.empty();
        inbound.subscribe(buffer -> DataBufferUtils.release((DataBuffer) buffer), e -> drained.tryEmitEmpty(),
                drained::tryEmitEmpty);
        response.set(drained.asMono().timeout(CHANNEL_DRAIN_LIMIT, reactor.core.publisher.Mono.empty())
                .thenMany(Flux.error(error)));
    }
}
