package io.jvmps.server.api;

import io.rsocket.Payload;
import org.springframework.messaging.rsocket.MetadataExtractor;
import org.springframework.util.MimeType;

import java.util.HashMap;
import java.util.Map;

/**
 * Reads request metadata with Spring's extractor; metadata it cannot read (not composite, a truncated entry,
 * a bad routing tag) becomes an empty route plus an {@link #UNREADABLE} header that names the problem, so the
 * request takes the ordinary no-route path ({@link CodedRSocketMessageHandler}, which answers
 * {@code [INVALID_ARGUMENT] unreadable request metadata: ...}) and its payload is released there like any
 * other. Throwing here instead left the payload unreleased (a leak per malformed request), and the requester
 * got RSocket's bare "metadata is malformed". Stateless and thread-safe.
 */
public final class CodedMetadataExtractor implements MetadataExtractor {
    /** Header set, in place of a route, on a request whose metadata could not be read; its value says why. */
    public static final String UNREADABLE = "ps.unreadableMetadata";

    private final MetadataExtractor delegate;

    /** @param delegate the extractor that knows the metadata entries (routing, MIME types) */
    public CodedMetadataExtractor(MetadataExtractor delegate) {
        this.delegate = delegate;
    }

    @Override
    public Map<String, Object> extract(Payload payload, MimeType metadataMimeType) {
        try {
            return delegate.extract(payload, metadataMimeType);
        } catch (RuntimeException e) {
            Map<String, Object> unreadable = new HashMap<>();
            unreadable.put(ROUTE_KEY, "");
            unreadable.put(UNREADABLE, metadataMimeType + " with a routing entry expected: " + e.getMessage());
            return unreadable;
        }
    }
}
