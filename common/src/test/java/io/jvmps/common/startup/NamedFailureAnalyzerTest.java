package io.jvmps.common.startup;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real application whose bean fails at start-up: with a named error, Spring's short report (description and
 * action, no stack trace); with any other error, Spring's report keeps the trace.
 */
@ExtendWith(OutputCaptureExtension.class)
class NamedFailureAnalyzerTest {
    static final String REASON = "MNIST data not found in directory /nonexistent/mnist";

    @Configuration(proxyBeanMethods = false)
    static class NamedFailure {
        @Bean
        String dataset() {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, REASON);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnforeseenFailure {
        @Bean
        String dataset() {
            throw new IllegalStateException("a bug in the loader");
        }
    }

    @Test
    void aNamedFailureIsTheShortReportWithoutAStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> start(NamedFailure.class)).hasRootCauseInstanceOf(PsException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("[INVALID_ARGUMENT] " + REASON)
                .contains(NamedFailureAnalyzer.ACTION)
                .contains(StartupFailureReporter.PREFIX + "[INVALID_ARGUMENT] " + REASON)
                .doesNotContain("\tat ");
    }

    @Test
    void anUnforeseenFailureKeepsItsStackTrace(CapturedOutput output) {
        assertThatThrownBy(() -> start(UnforeseenFailure.class)).hasRootCauseMessage("a bug in the loader");
        assertThat(output).doesNotContain("APPLICATION FAILED TO START").contains("a bug in the loader")
                .contains("\tat ");
    }

    private static void start(Class<?> configuration) {
        SpringApplication app = new SpringApplication(configuration);
        app.setWebApplicationType(WebApplicationType.NONE);
        app.run("--spring.main.banner-mode=off");
    }
}
