package io.jvmps.common.security;

import io.jvmps.common.http.ErrorAnswers;
import io.jvmps.common.protocol.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Requires the cluster secret ({@code Authorization: Bearer <secret>}) on every mutating HTTP request
 * (anything but GET, HEAD and OPTIONS) and, when {@code protectReads} is set, on reads too, except the
 * health and info endpoints, which stay open for probes. A request without the right secret is answered
 * 401 with an {@code ErrorBody} JSON ({@code UNAUTHENTICATED}) before any handler runs, so nothing
 * changes, and is logged with its method, path and remote address. The rejection closes the connection, since
 * the request's body is left unread ({@link ErrorAnswers}). Thread-safe.
 */
public final class ClusterSecretWebFilter implements WebFilter {
    private static final Logger log = LoggerFactory.getLogger(ClusterSecretWebFilter.class);

    private final ClusterSecret secret;
    private final boolean protectReads;

    /**
     * @param secret       the secret callers must send
     * @param protectReads whether reads (status, cluster view, metrics, dashboard) need it too
     */
    public ClusterSecretWebFilter(ClusterSecret secret, boolean protectReads) {
        this.secret = secret;
        this.protectReads = protectReads;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!needsSecret(request) || secret.matchesHeader(request.getHeaders().getFirst(ClusterSecret.HTTP_HEADER))) {
            return chain.filter(exchange);
        }
        boolean missing = request.getHeaders().getFirst(ClusterSecret.HTTP_HEADER) == null;
        String reason = (missing ? "missing" : "wrong") + " cluster secret: send the header '"
                + ClusterSecret.HTTP_HEADER + ": " + ClusterSecret.HTTP_SCHEME + "<ps.security.secret>'";
        log.warn("Rejected {} {} from {}: {}", request.getMethod(), request.getPath(), request.getRemoteAddress(),
                missing ? "no cluster secret" : "wrong cluster secret");
        ServerHttpResponse response = exchange.getResponse();
        response.getHeaders().set("WWW-Authenticate", "Bearer realm=\"jvm-ps\"");
        return ErrorAnswers.write(response, HttpStatus.UNAUTHORIZED, ErrorCode.UNAUTHENTICATED, reason);
    }

    private boolean needsSecret(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        boolean read = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method)
                || HttpMethod.OPTIONS.equals(method);
        if (!read) {
            return true;
        }
        String path = request.getPath().pathWithinApplication().value();
        boolean open = path.equals("/actuator/health") || path.startsWith("/actuator/health/")
                || path.equals("/actuator/info");
        return protectReads && !open;
    }
}
