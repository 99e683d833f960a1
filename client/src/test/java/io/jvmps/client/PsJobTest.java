package io.jvmps.client;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Joining a job that is not there ends at the deadline with an error naming the scheduler; bad settings fail fast. */
class PsJobTest {

    @Test
    void anUnreachableSchedulerIsATimeoutNamingIt() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ClientSettings settings = ClientSettings.of("127.0.0.1", port, "client-test-secret-0123456789")
                .withServerWaitTimeout(Duration.ofMillis(300)).withServerWaitInterval(Duration.ofMillis(50));
        int nowPort = port;
        assertThatThrownBy(() -> PsJob.join(settings))
                .isInstanceOfSatisfying(PsException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TIMEOUT))
                .hasMessageContaining("scheduler at http://127.0.0.1:" + nowPort).hasMessageContaining("did not answer");
    }

    @Test
    void settingsRefuseWhatCannotWork() {
        assertThatThrownBy(() -> ClientSettings.of("127.0.0.1", 0, "client-test-secret-0123456789"))
                .hasMessageContaining("schedulerPort");
        assertThatThrownBy(() -> ClientSettings.of("127.0.0.1", 8080, "short")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> ClientSettings.of("127.0.0.1", 8080, "client-test-secret-0123456789")
                .withRequestTimeout(Duration.ZERO)).hasMessageContaining("must be positive");
    }
}
