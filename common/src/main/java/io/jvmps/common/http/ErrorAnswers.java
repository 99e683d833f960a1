package io.jvmps.common.http;

import io.jvmps.common.protocol.ErrorBody;
import io.jvmps.common.protocol.ErrorCode;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;

/**
 * Writes an {@link ErrorBody} answer from a web filter, before any handler (and so before any JSON codec) runs.
 * The answer closes the connection: a filter that refuses a request has not read all of its body, and the rest
 * must never be taken for the client's next request. Stateless.
 */
public final class ErrorAnswers {
    private ErrorAnswers() {
    }

    /**
     * @param response the response to write
     * @param status   its HTTP status
     * @param code     the protocol's error code
     * @param message  what was wrong, for a person
     * @return completes once the answer is written
     */
    public static Mono<Void> write(ServerHttpResponse response, HttpStatus status, ErrorCode code, String message) {
        response.setStatusCode(status);
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        response.getHeaders().set(HttpHeaders.CONNECTION, "close");
        String json = "{\"code\":\"" + code.name() + "\",\"message\":\"" + escape(message) + "\"}";
        DataBuffer body = response.bufferFactory().wrap(json.getBytes(StandardCharsets.UTF_8));
        return response.writeWith(Mono.just(body));
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
