package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.messaging.handler.annotation.MessageExceptionHandler;
import org.springframework.web.bind.annotation.ControllerAdvice;
import reactor.core.publisher.Mono;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.codec.DecodingException;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;

/**
 * Logs RSocket handler errors once, briefly, and passes them on unchanged, so the requester still
 * receives an application error whose message is {@code [CODE] detail}. Rejected input
 * ({@link PsException}) is the requester's fault and logged at debug level; anything else is a
 * server bug, logged with its stack trace and reported as {@link ErrorCode#INTERNAL}. Without this
 * advice Spring would log every rejected push as an error with a stack trace.
 */
@ControllerAdvice
public class RSocketErrorAdvice {
    private static final Logger log = LoggerFactory.getLogger(RSocketErrorAdvice.class);

    /** @return the same error, for the requester */
    @MessageExceptionHandler(PsException.class)
    public Mono<Void> rejected(PsException e) {
        return Mono.error(forRequester(e));
    }

    /**
     * A request body that could not be read (JSON that does not fit the route's type, or a value its
     * constructor refuses) is the requester's fault: INVALID_ARGUMENT, or the refusing {@link PsException}.
     *
     * @return the error, for the requester
     */
    @MessageExceptionHandler({DecodingException.class, MethodArgumentResolutionException.class})
    public Mono<Void> unreadable(Exception e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof PsException refused) {
                return rejected(refused);
            }
        }
        return rejected(new PsException(ErrorCode.INVALID_ARGUMENT, "request body could not be read: "
                + io.jvmps.common.protocol.JsonInputErrors.describe(e)
                .orElseGet(() -> NestedExceptionUtils.getMostSpecificCause(e).getMessage())));
    }

    /** @return the error as INTERNAL, naming what happened */
    @MessageExceptionHandler
    public Mono<Void> failed(Throwable e) {
        return Mono.error(forRequester(e));
    }

    /**
     * The one rule for what a requester is told, for Spring's dispatch and the data path alike: a rejection
     * (logged at debug) as it is, anything else (logged with its stack trace) as INTERNAL naming what happened.
     *
     * @return the error to send
     */
    static PsException forRequester(Throwable e) {
        if (e instanceof PsException refused) {
            log.debug("Request rejected: {}", refused.getMessage());
            return refused;
        }
        log.error("Request failed unexpectedly", e);
        return new PsException(ErrorCode.INTERNAL, e.toString());
    }
}
