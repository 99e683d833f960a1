package io.jvmps.common.protocol;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;

import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Says what is wrong with a JSON request body in the requester's terms, for the REST API and the RSocket JSON
 * routes alike: a value of the wrong type names its field and what it must be ({@code field rank must be a whole
 * number, got "abc"}); any other Jackson error gives the first line of Jackson's message (which names a field given
 * twice, or lists an enum's values). Stateless.
 */
public final class JsonInputErrors {
    private JsonInputErrors() {
    }

    /**
     * @param error a decoding failure, or anything that wraps one
     * @return what is wrong, when a Jackson error is among its causes
     */
    public static Optional<String> describe(Throwable error) {
        for (Throwable t = error; t != null && t != t.getCause(); t = t.getCause()) {
            // enum values keep Jackson's message, which lists the accepted ones
            if (t instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()
                    && (mismatch.getTargetType() == null || !mismatch.getTargetType().isEnum())) {
                return Optional.of(wrongType(mismatch));
            }
            if (t instanceof JacksonException && t.getMessage() != null) {
                return t.getMessage().lines().findFirst();
            }
        }
        return Optional.empty();
    }

    /** @return e.g. {@code field httpPort must be a whole number, got "abc"} */
    private static String wrongType(MismatchedInputException e) {
        String field = e.getPath().stream()
                .map(r -> r.getPropertyName() != null ? r.getPropertyName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
        Class<?> type = e.getTargetType();
        String expected = type == null ? "of another type"
                : type == int.class || type == long.class || type == Integer.class || type == Long.class
                ? "a whole number"
                : type == double.class || type == float.class || type == Double.class || type == Float.class ? "a number"
                : type == boolean.class || type == Boolean.class ? "true or false"
                : type == String.class ? "a string"
                : "a " + type.getSimpleName();
        String got = e instanceof InvalidFormatException invalid && invalid.getValue() != null
                ? ", got \"" + invalid.getValue() + "\"" : "";
        return "field " + field + " must be " + expected + got;
    }
}
