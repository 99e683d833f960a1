package io.jvmps.scheduler.registry;

import io.jvmps.common.cluster.NodeRole;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.protocol.RegisterRequest;

/** Checks a {@link RegisterRequest} before it touches the registry; bad input raises INVALID_ARGUMENT. */
final class RegistrationValidator {
    private static final int MAX_PORT = 65535;

    private RegistrationValidator() {
    }

    /**
     * @param request the request to check
     * @throws PsException with {@link ErrorCode#INVALID_ARGUMENT} naming the bad field
     */
    static void validate(RegisterRequest request) {
        if (request == null) {
            throw invalid("request body is required");
        }
        if (request.role() == null) {
            throw invalid("role is required; accepted: server, worker");
        }
        if (request.role() != NodeRole.SERVER && request.role() != NodeRole.WORKER) {
            throw invalid("role must be server or worker, got " + request.role().label());
        }
        if (request.host() == null || request.host().isBlank()) {
            throw invalid("host must not be blank");
        }
        checkPort("httpPort", request.httpPort(), 0);
        checkPort("rsocketPort", request.rsocketPort(), request.role() == NodeRole.SERVER ? 1 : 0);
    }

    private static void checkPort(String field, int value, int min) {
        if (value < min || value > MAX_PORT) {
            throw invalid(field + " must be between " + min + " and " + MAX_PORT + ", got " + value);
        }
    }

    private static PsException invalid(String detail) {
        return new PsException(ErrorCode.INVALID_ARGUMENT, detail);
    }
}
