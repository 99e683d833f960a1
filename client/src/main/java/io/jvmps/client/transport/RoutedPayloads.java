package io.jvmps.client.transport;

import io.jvmps.common.codec.RouteMetadata;
import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Payloads for the raw RSocket data path: tensor bytes as they are, plus the route as composite metadata
 * with one routing entry, which is what Spring's requester writes and what a server's responders read. Each
 * route's metadata is encoded once and shared (read-only, never released), so a request costs no encoding
 * but its data's. Thread-safe.
 */
public final class RoutedPayloads {
    private final Map<String, ByteBuf> metadata = new ConcurrentHashMap<>();

    /**
     * @param route the request's route
     * @param data  the bytes to send; the payload takes ownership
     * @return a payload carrying the route: the first (or only) payload of a request
     */
    public Payload first(String route, ByteBuf data) {
        return ByteBufPayload.create(data, metadata.computeIfAbsent(route, RouteMetadata::encode).duplicate());
    }

    /** @return a payload of data only: every payload of a channel after its first */
    public static Payload next(ByteBuf data) {
        return ByteBufPayload.create(data);
    }
}
