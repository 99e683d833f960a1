package io.jvmps.common.startup;

import io.jvmps.common.protocol.PsException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a start-up failure the product names (a {@link PsException} anywhere in the cause chain: a data folder that
 * does not exist, a model file that does not load, a setting out of range) into Spring Boot's "APPLICATION FAILED
 * TO START" report: the error code and reason as the description, what to do as the action, and no stack trace
 * (Spring logs the exception at DEBUG once an analyzer explains it). A failure of any other kind keeps Spring's
 * report with its stack trace. Registered for every role through {@code META-INF/spring.factories}. Stateless.
 */
public final class NamedFailureAnalyzer extends AbstractFailureAnalyzer<PsException> {
    /** The action every named failure gets. */
    static final String ACTION = "Correct what the description names (a ps.* setting or a file or folder it points "
            + "to) and start the node again; docs/configuration.md lists every setting with its default.";

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, PsException cause) {
        return new FailureAnalysis(cause.getMessage(), ACTION, cause);
    }
}
