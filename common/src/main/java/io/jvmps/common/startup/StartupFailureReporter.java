package io.jvmps.common.startup;

import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.context.ApplicationListener;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Prints one line to standard error when a node fails to start, before Spring's longer report:
 * {@code jvm-ps: cannot start: ps.worker.model=FOO is not valid; accepted values: LENET5, SOFTMAX}.
 * It names the property, the bad value and, for enums, the accepted values; for a validation failure,
 * every violated constraint; otherwise the deepest message that names a {@code ps.*} property, else
 * the root cause. Registered for every role through {@code META-INF/spring.factories}. Stateless.
 */
public final class StartupFailureReporter implements ApplicationListener<ApplicationFailedEvent> {
    /** A {@code ps.*} property name in a message (not a package name such as {@code io.jvmps.server}). */
    private static final java.util.regex.Pattern PROPERTY = java.util.regex.Pattern.compile("(?<![\\w.])ps\\.[a-z]");

    /** Prefix of the line. */
    public static final String PREFIX = "jvm-ps: cannot start: ";

    @Override
    public void onApplicationEvent(ApplicationFailedEvent event) {
        System.err.println(PREFIX + describe(event.getException()));
    }

    /** @return the one-line explanation of a start-up failure */
    public static String describe(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BindException bind) {
                return describe(bind);
            }
        }
        String named = null;
        Throwable root = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (namesProperty(t.getMessage())) {
                named = t.getMessage();
            }
            root = t;
        }
        return oneLine(named != null ? named : String.valueOf(root.getMessage() != null ? root.getMessage() : root));
    }

    private static String describe(BindException bind) {
        Throwable root = bind;
        for (Throwable t = bind; t != null; t = t.getCause()) {
            if (t instanceof BindValidationException invalid) {
                Set<String> errors = new LinkedHashSet<>();
                String prefix = invalid.getValidationErrors().getName().toString();
                for (ObjectError error : invalid.getValidationErrors().getAllErrors()) {
                    if (error instanceof FieldError field) {
                        String message = String.valueOf(field.getDefaultMessage());
                        errors.add(message.startsWith("ps.") ? message + " (got " + field.getRejectedValue() + ")"
                                : prefix + "." + dashed(field.getField()) + "=" + field.getRejectedValue() + " " + message);
                    } else {
                        errors.add(prefix + ": " + error.getDefaultMessage());
                    }
                }
                return oneLine(String.join("; ", errors));
            }
            root = t;
        }
        if (namesProperty(root.getMessage())) {
            return oneLine(root.getMessage());
        }
        Object value = bind.getProperty() == null ? null : bind.getProperty().getValue();
        StringBuilder line = new StringBuilder(bind.getName().toString());
        if (value != null) {
            line.append('=').append(value);
        }
        line.append(" is not valid");
        Class<?> type = bind.getTarget().getType().resolve();
        if (type != null && type.isEnum()) {
            line.append("; accepted values: ").append(Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", ")));
        } else if (root.getMessage() != null) {
            line.append(": ").append(root.getMessage());
        }
        return oneLine(line.toString());
    }

    private static boolean namesProperty(String message) {
        return message != null && PROPERTY.matcher(message).find();
    }

    private static String dashed(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
