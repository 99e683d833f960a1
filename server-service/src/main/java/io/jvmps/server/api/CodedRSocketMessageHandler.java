package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.rsocket.annotation.support.RSocketMessageHandler;
import org.springframework.util.RouteMatcher;

/**
 * Spring's RSocket dispatcher with this server's error format for a request that no route takes (an
 * unknown route, or a known one with the wrong interaction): the requester gets
 * {@code [INVALID_ARGUMENT] No handler for destination 'x'} instead of Spring's bare message.
 */
public final class CodedRSocketMessageHandler extends RSocketMessageHandler {
    @Override
    protected void handleNoMatch(RouteMatcher.Route destination, Message<?> message) {
        try {
            super.handleNoMatch(destination, message);
        } catch (MessageDeliveryException e) {
            throw new MessageDeliveryException(message, "[" + ErrorCode.INVALID_ARGUMENT + "] " + e.getMessage()
                    + " (the server's routes are listed in docs/protocol.md)");
        }
    }
}
