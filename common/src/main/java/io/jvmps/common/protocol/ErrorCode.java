package io.jvmps.common.protocol;

/**
 * Stable error codes carried in every error the servers and the scheduler return. The code is
 * the first token of the error message, in brackets (see {@link PsException#getMessage()}), so
 * clients in any language can branch on it without parsing prose. Codes are never renumbered or
 * reused; new ones are appended.
 */
public enum ErrorCode {
    /** A frame could not be decoded: bad magic, version, dtype, rank, or byte count. */
    MALFORMED_FRAME,
    /** A payload or a tensor exceeded the configured size cap. */
    PAYLOAD_TOO_LARGE,
    /** A key (parameter slice) the server does not hold. */
    UNKNOWN_KEY,
    /** Element count or shape does not match the stored slice. */
    SHAPE_MISMATCH,
    /** A value was NaN or infinite. */
    NON_FINITE,
    /** A push for a step other than the one the consistency mode accepts now. */
    WRONG_STEP,
    /** The same worker pushed the same key twice for one step. */
    DUPLICATE_PUSH,
    /** A slice was pulled or pushed before any worker initialised it. */
    NOT_INITIALIZED,
    /** A wait (pull, barrier, rendezvous) passed its deadline; the message names what was missing. */
    TIMEOUT,
    /** Input that is well-formed but not acceptable (bad role, bad counts, bad configuration). */
    INVALID_ARGUMENT,
    /** The node is not ready to serve the request (e.g. cluster not complete). */
    NOT_READY,
    /** Anything else: a bug or an unexpected failure; the message says what happened. */
    INTERNAL,
    /** The cluster secret was missing or wrong (REST call or RSocket setup); nothing was changed. */
    UNAUTHENTICATED,
    /** Accepting the request would take a server past a configured memory cap; nothing was changed. */
    RESOURCE_EXHAUSTED,
    /**
     * The server rolled its parameters back to a checkpoint (a server of the job was replaced) while
     * this request waited or after it was sent; the worker recovers and resumes at the checkpoint's step.
     */
    ROLLED_BACK,
    /**
     * A server that replaced a lost one of a running job has no checkpoint to restore the lost parameters
     * from: they are gone, and creating them afresh would mix new values into a trained model. The job
     * cannot go on; it is marked FAILED and must be started again.
     */
    STATE_LOST
}
