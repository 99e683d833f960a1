package io.jvmps.common.protocol;

/**
 * The JSON body of every REST error answer, e.g.
 * {@code {"code":"INVALID_ARGUMENT","message":"role must be SERVER or WORKER"}}.
 *
 * @param code    an {@link ErrorCode} name
 * @param message what was wrong, naming the field or value
 */
public record ErrorBody(String code, String message) {
    /** @return a body for an exception */
    public static ErrorBody of(PsException e) {
        return new ErrorBody(e.code().name(), e.detail());
    }
}
