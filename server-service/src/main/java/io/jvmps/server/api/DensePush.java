package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.server.monitor.ServerMetrics;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Route {@value Routes#DENSE_PUSH}: one worker's gradients (GEO: deltas) for one step, as a request-channel of
 * tensor frames or, when they fit, one request-response payload; both are validated and applied alike, by the
 * configured {@link PushApplication}, and answered with one {@link PushAck}. Thread-safe.
 */
@Component
public class DensePush {
    private final PushApplication application;
    private final ServerMetrics metrics;

    /** @param application how the push's slices reach the consistency policy ({@code ps.server.push-apply}) */
    public DensePush(PushApplication application, ServerMetrics metrics) {
        this.application = application;
        this.metrics = metrics;
    }

    /** @return the acknowledgement once the push was taken, or the error */
    public Mono<PushAck> push(Flux<DataBuffer> inbound) {
        return metrics.timePush(application.apply(inbound));
    }

    /**
     * A push whose frames fit one payload (a packed LeNet push, say), answered in one frame each way without the
     * request-channel's completion and credit frames.
     */
    public Mono<PushAck> push(DataBuffer payload) {
        return push(Flux.just(payload));
    }
}
