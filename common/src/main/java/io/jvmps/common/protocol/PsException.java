package io.jvmps.common.protocol;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one exception type the protocol raises. Its message has the stable form
 * {@code [CODE] human readable text}, which survives transport as an RSocket application error or
 * an HTTP problem detail, and is parsed back by {@link #fromRemoteMessage(String)}.
 * Immutable and thread-safe.
 */
public class PsException extends RuntimeException {
    private static final Pattern CODED = Pattern.compile("^\\[([A-Z_]+)] (.*)$", Pattern.DOTALL);

    private final ErrorCode code;
    private final String detail;

    /**
     * @param code   the stable error code
     * @param detail a message naming what was wrong (key, expected and actual values)
     */
    public PsException(ErrorCode code, String detail) {
        super("[" + Objects.requireNonNull(code) + "] " + detail);
        this.code = code;
        this.detail = detail;
    }

    /** @return the stable code */
    public ErrorCode code() {
        return code;
    }

    /** @return the message without the code prefix */
    public String detail() {
        return detail;
    }

    /**
     * Rebuilds an exception from a message received from a remote node. Messages without a
     * recognised code become {@link ErrorCode#INTERNAL}, keeping the whole text.
     *
     * @param message the remote error message, may be null
     * @return an exception with the parsed code and detail
     */
    public static PsException fromRemoteMessage(String message) {
        String text = message == null ? "(no message)" : message;
        Matcher m = CODED.matcher(text);
        if (m.matches()) {
            try {
                return new PsException(ErrorCode.valueOf(m.group(1)), m.group(2));
            } catch (IllegalArgumentException unknownCode) {
                return new PsException(ErrorCode.INTERNAL, text);
            }
        }
        return new PsException(ErrorCode.INTERNAL, text);
    }
}
