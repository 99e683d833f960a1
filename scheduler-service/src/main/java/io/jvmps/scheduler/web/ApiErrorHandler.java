package io.jvmps.scheduler.web;

import io.jvmps.common.protocol.ErrorBody;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.scheduler.registry.ClusterFullException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

import java.util.stream.Collectors;

/**
 * Turns every error of the REST API into {@link ErrorBody} JSON: {@link PsException} by its code
 * (404 unknown node, 400 bad input, 409 cluster full), malformed JSON and validation failures as 400
 * INVALID_ARGUMENT (a value of the wrong type names its field and what it must be), an unknown route as 404
 * UNKNOWN_KEY, a body over the limit as 413 PAYLOAD_TOO_LARGE, anything unexpected as 500 INTERNAL
 * (logged with its stack trace).
 */
@RestControllerAdvice
public class ApiErrorHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiErrorHandler.class);

    /** @return 409 with the counts */
    @ExceptionHandler(ClusterFullException.class)
    public ResponseEntity<ErrorBody> clusterFull(ClusterFullException e) {
        log.warn("Registration rejected: {}", e.detail());
        return body(HttpStatus.CONFLICT, ErrorBody.of(e));
    }

    /** @return the status matching the code */
    @ExceptionHandler(PsException.class)
    public ResponseEntity<ErrorBody> ps(PsException e) {
        log.debug("Request rejected: {}", e.getMessage());
        return body(ErrorStatus.of(e.code()), ErrorBody.of(e));
    }

    /** @return 400 listing every invalid field */
    @ExceptionHandler(WebExchangeBindException.class)
    public ResponseEntity<ErrorBody> validation(WebExchangeBindException e) {
        String fields = e.getFieldErrors().stream().map(ApiErrorHandler::describe).collect(Collectors.joining("; "));
        return invalid(fields.isEmpty() ? e.getReason() : fields);
    }

    /** @return 400 for an unreadable body (malformed JSON, wrong types, unknown enum values, missing body) */
    @ExceptionHandler(ServerWebInputException.class)
    public ResponseEntity<ErrorBody> input(ServerWebInputException e) {
        return invalid(rootMessage(e));
    }

    /**
     * @return the framework's status as an ErrorBody with the code the protocol's table gives it: 404 (no
     * such route) UNKNOWN_KEY, 413 PAYLOAD_TOO_LARGE, any other 4xx (405, 415, ...) INVALID_ARGUMENT
     */
    @ExceptionHandler(ResponseStatusException.class)
    public ResponseEntity<ErrorBody> status(ResponseStatusException e) {
        HttpStatusCode status = e.getStatusCode();
        ErrorCode code = switch (status.value()) {
            case 404 -> ErrorCode.UNKNOWN_KEY;
            case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
            default -> status.is4xxClientError() ? ErrorCode.INVALID_ARGUMENT : ErrorCode.INTERNAL;
        };
        return body(status, new ErrorBody(code.name(), e.getReason() == null ? e.getMessage() : e.getReason()));
    }

    /** @return 500 INTERNAL for anything unexpected */
    @ExceptionHandler(Exception.class)
    public ResponseEntity<ErrorBody> unexpected(Exception e) {
        log.error("Unexpected error in REST API", e);
        return body(HttpStatus.INTERNAL_SERVER_ERROR, new ErrorBody(ErrorCode.INTERNAL.name(), String.valueOf(e)));
    }

    private static ResponseEntity<ErrorBody> invalid(String message) {
        return body(HttpStatus.BAD_REQUEST, new ErrorBody(ErrorCode.INVALID_ARGUMENT.name(), message));
    }

    private static ResponseEntity<ErrorBody> body(HttpStatusCode status, ErrorBody body) {
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static String describe(FieldError error) {
        return error.getField() + " " + error.getDefaultMessage() + " (got " + error.getRejectedValue() + ")";
    }

    private static String rootMessage(ServerWebInputException e) {
        String reason = e.getReason() == null ? "invalid request" : e.getReason();
        return io.jvmps.common.protocol.JsonInputErrors.describe(e.getCause()).map(what -> reason + ": " + what)
                .orElse(reason);
    }
}
