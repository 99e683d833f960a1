package io.jvmps.server.api;

import io.jvmps.common.protocol.Routes;
import io.jvmps.common.security.ClusterSecret;
import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.support.ServerSpringTest;
import io.rsocket.exceptions.RejectedSetupException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A client must present the cluster secret in its RSocket SETUP frame before any route answers. */
@ServerSpringTest
@ExtendWith(OutputCaptureExtension.class)
class ClusterSecretRSocketTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Autowired
    ObjectProvider<RSocketRequester.Builder> builders;
    @LocalRSocketServerPort
    int port;

    @Test
    void connectionsWithoutOrWithAWrongSecretAreRejectedBeforeAnyRoute(CapturedOutput output) {
        RSocketRequester none = builders.getObject().dataMimeType(MimeTypeUtils.APPLICATION_JSON).tcp("localhost", port);
        RSocketRequester wrong = withSecret("an-entirely-wrong-secret-value");
        try {
            assertThatThrownBy(() -> none.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT))
                    .isInstanceOf(RejectedSetupException.class)
                    .hasMessageContaining("[UNAUTHENTICATED]").hasMessageContaining("no cluster secret");
            assertThatThrownBy(() -> wrong.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT))
                    .isInstanceOf(RejectedSetupException.class)
                    .hasMessageContaining("[UNAUTHENTICATED]").hasMessageContaining("wrong cluster secret");
            assertThat(output).contains("Rejected an RSocket connection").doesNotContain("an-entirely-wrong-secret-value");
        } finally {
            none.dispose();
            wrong.dispose();
        }
    }

    @Test
    void aDataMimeTypeTheServerDoesNotSpeakIsRejectedAtSetup() {
        RSocketRequester text = builders.getObject()
                .setupMetadata("test-cluster-secret-0123456789", MimeType.valueOf(ClusterSecret.SETUP_MIME_TYPE))
                .dataMimeType(MimeTypeUtils.TEXT_PLAIN).tcp("localhost", port);
        try {
            assertThatThrownBy(() -> text.route(Routes.SERVER_STATUS).retrieveMono(String.class).block(WAIT))
                    .isInstanceOf(RejectedSetupException.class)
                    .hasMessageStartingWith("[INVALID_ARGUMENT] data MIME type 'text/plain' is not spoken here");
        } finally {
            text.dispose();
        }
    }

    @Test
    void theRightSecretIsServed() {
        RSocketRequester right = withSecret("test-cluster-secret-0123456789");
        try {
            assertThat(right.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT)).isNotNull();
        } finally {
            right.dispose();
        }
    }

    private RSocketRequester withSecret(String secret) {
        return builders.getObject().setupMetadata(secret, MimeType.valueOf(ClusterSecret.SETUP_MIME_TYPE))
                .dataMimeType(MimeTypeUtils.APPLICATION_JSON).tcp("localhost", port);
    }
}
