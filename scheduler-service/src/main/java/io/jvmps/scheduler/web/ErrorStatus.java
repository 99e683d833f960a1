package io.jvmps.scheduler.web;

import io.jvmps.common.protocol.ErrorCode;
import org.springframework.http.HttpStatus;

/** The HTTP status that answers each {@link ErrorCode}. */
final class ErrorStatus {
    private ErrorStatus() {
    }

    /** @return the status for the code */
    static HttpStatus of(ErrorCode code) {
        return switch (code) {
            case UNKNOWN_KEY -> HttpStatus.NOT_FOUND;
            case MALFORMED_FRAME, SHAPE_MISMATCH, NON_FINITE, INVALID_ARGUMENT -> HttpStatus.BAD_REQUEST;
            case PAYLOAD_TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
            case WRONG_STEP, DUPLICATE_PUSH, ROLLED_BACK, STATE_LOST -> HttpStatus.CONFLICT;
            case NOT_INITIALIZED, NOT_READY -> HttpStatus.SERVICE_UNAVAILABLE;
            case TIMEOUT -> HttpStatus.GATEWAY_TIMEOUT;
            case INTERNAL -> HttpStatus.INTERNAL_SERVER_ERROR;
            case UNAUTHENTICATED -> HttpStatus.UNAUTHORIZED;
            case RESOURCE_EXHAUSTED -> HttpStatus.INSUFFICIENT_STORAGE;
        };
    }
}
