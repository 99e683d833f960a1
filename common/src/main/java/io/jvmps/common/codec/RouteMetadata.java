package io.jvmps.common.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.TaggingMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;

import java.util.List;

/**
 * A request's route as RSocket carries it: composite metadata with one {@code message/x.rsocket.routing.v0} entry,
 * which is what Spring's requester writes and its responder reads. The one encoder and the one reader of it for
 * the client library and the nodes' own dispatchers. Stateless.
 */
public final class RouteMetadata {
    private static final String ROUTING = WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString();

    private RouteMetadata() {
    }

    /**
     * @return the metadata naming {@code route}: an unreleasable heap buffer, safe to share between payloads
     *         through {@link ByteBuf#duplicate()}
     */
    public static ByteBuf encode(String route) {
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

    /**
     * @return the payload's route (the first tag of its routing entry), or null when it has no metadata, no routing
     *         entry, or metadata that cannot be read; the payload is not consumed
     */
    public static String route(Payload payload) {
        if (!payload.hasMetadata()) {
            return null;
        }
        try {
            for (CompositeMetadata.Entry entry : new CompositeMetadata(payload.sliceMetadata(), false)) {
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
