package io.jvmps.server.support;

import io.jvmps.common.security.ClusterSecret;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/** Connections to the server under test, with the test cluster secret in the SETUP frame. */
public final class TestRequesters {
    /** The secret {@code config/application.properties} of the tests configures. */
    public static final String SECRET = "test-cluster-secret-0123456789";

    private TestRequesters() {
    }

    /** @return a JSON requester on {@code localhost:port} that sends the test secret */
    public static RSocketRequester connect(RSocketRequester.Builder builder, int port) {
        return builder.setupMetadata(SECRET, MimeType.valueOf(ClusterSecret.SETUP_MIME_TYPE))
                .dataMimeType(MimeTypeUtils.APPLICATION_JSON).tcp("localhost", port);
    }
}
