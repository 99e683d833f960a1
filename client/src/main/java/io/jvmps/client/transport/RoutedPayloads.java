package io.jvmps.client.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.TaggingMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.util.ByteBufPayload;

import java.util.List;
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
        return ByteBufPayload.create(data, metadata.computeIfAbsent(route, RoutedPayloads::encode).duplicate());
    }

    /** @return a payload of data only: every payload of a channel after its first */
    public static Payload next(ByteBuf data) {
        return ByteBufPayload.create(data);
    }

    private static ByteBuf encode(String route) {
        CompositeByteBuf composite = ByteBufAllocator.DEFAULT.compositeBuffer();
        CompositeMetadataCodec.encodeAndAddMetadata(composite, ByteBufAllocator.DEFAULT,
                WellKnownMimeType.MESSAGE_RSOCKET_ROUTING,
                TaggingMetadataCodec.createTaggingContent(ByteBufAllocator.DEFAULT, List.of(route)));
        try {
            return Unpooled.unreleasableBuffer(Unpooled.copiedBuffer(composite));
        } finally {
            composite.release();
        }
    }
}
