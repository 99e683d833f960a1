package io.jvmps.server.config;

import io.jvmps.common.codec.TensorChunker;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Size limits of the RSocket transport, bound from {@code ps.transport.*}.
 *
 * @param maxInboundPayloadBytes largest accepted inbound payload (one frame, or one reassembled
 *                               fragmented payload); must hold one 1 MiB tensor chunk plus its header
 * @param maxTensorBytes         largest tensor (slice) accepted in an init or push, in bytes
 * @param pullChunkBytes         data bytes per chunk when streaming slices back to a puller
 */
@Validated
@ConfigurationProperties("ps.transport")
public record TransportProperties(
        @DefaultValue("4194304")
        @Min(value = TransportProperties.MIN_INBOUND_PAYLOAD_BYTES,
                message = "ps.transport.max-inbound-payload-bytes must be at least 1049600 (one 1 MiB chunk plus header)")
        int maxInboundPayloadBytes,
        @DefaultValue("1073741824")
        @Min(value = 4, message = "ps.transport.max-tensor-bytes must be between 4 and 2147483647")
        @Max(value = Integer.MAX_VALUE, message = "ps.transport.max-tensor-bytes must be between 4 and 2147483647")
        long maxTensorBytes,
        @DefaultValue("1048576")
        @Min(value = 1024, message = "ps.transport.pull-chunk-bytes must be between 1024 and 8388608")
        @Max(value = 8 << 20, message = "ps.transport.pull-chunk-bytes must be between 1024 and 8388608")
        int pullChunkBytes) {

    /** Smallest accepted payload cap: one default-size chunk plus generous header room. */
    public static final int MIN_INBOUND_PAYLOAD_BYTES = TensorChunker.DEFAULT_CHUNK_BYTES + 1024;
}
