package io.jvmps.common.http;

import io.jvmps.common.protocol.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.time.Duration;

/**
 * Refuses a request whose declared body ({@code Content-Length}) is over the limit with 413
 * {@code PAYLOAD_TOO_LARGE}, naming both sizes and the property, before any handler runs. It first reads the body
 * to its end and discards it (up to {@code drainBytes}, for at most {@code drainTimeout}), so the client has sent
 * everything when the answer arrives and the connection closes cleanly: closing on unread bytes makes the peer's
 * kernel reset the connection and the client see "connection reset" instead of the answer. A body larger than
 * {@code drainBytes} is refused without reading it. Runs first among the web filters. Thread-safe.
 */
public final class BodyLimitWebFilter implements WebFilter, Ordered {
    private static final Logger log = LoggerFactory.getLogger(BodyLimitWebFilter.class);

    private final long limitBytes;
    private final long drainBytes;
    private final Duration drainTimeout;

    /**
     * @param limitBytes   largest body accepted, in bytes ({@code spring.codec.max-in-memory-size})
     * @param drainBytes   largest refused body still read to its end, in bytes
     * @param drainTimeout longest time spent reading a refused body
     */
    public BodyLimitWebFilter(long limitBytes, long drainBytes, Duration drainTimeout) {
        this.limitBytes = limitBytes;
        this.drainBytes = drainBytes;
        this.drainTimeout = drainTimeout;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        long declared = request.getHeaders().getContentLength();
        if (declared <= limitBytes) {
            return chain.filter(exchange);
        }
        log.warn("Refused {} {} from {}: a body of {} bytes, over the limit of {} bytes", request.getMethod(),
                request.getPath(), request.getRemoteAddress(), declared, limitBytes);
        Mono<Void> drain = declared > drainBytes ? Mono.empty()
                : request.getBody().doOnNext(DataBufferUtils::release).then()
                        .timeout(drainTimeout).onErrorResume(e -> Mono.empty());
        String message = "request body of " + declared + " bytes is over the limit of " + limitBytes
                + " bytes (spring.codec.max-in-memory-size)";
        return drain.then(Mono.defer(() -> ErrorAnswers.write(exchange.getResponse(),
                HttpStatus.CONTENT_TOO_LARGE, ErrorCode.PAYLOAD_TOO_LARGE, message)));
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
