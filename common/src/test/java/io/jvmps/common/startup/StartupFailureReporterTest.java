package io.jvmps.common.startup;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Failures that are not property binding (those are covered by each role's properties tests). */
class StartupFailureReporterTest {

    @Test
    void prefersTheDeepestMessageThatNamesAPsProperty() {
        Throwable failure = new IllegalStateException("Error creating bean 'x'",
                new IllegalArgumentException("ps.security.secret must be at least 16 characters\n  (got 3)",
                        new RuntimeException("low-level detail")));
        assertThat(StartupFailureReporter.describe(failure))
                .isEqualTo("ps.security.secret must be at least 16 characters (got 3)");
    }

    @Test
    void fallsBackToTheRootCause() {
        Throwable failure = new IllegalStateException("context failed", new java.net.BindException("Address already in use"));
        assertThat(StartupFailureReporter.describe(failure)).isEqualTo("Address already in use");
    }
}
