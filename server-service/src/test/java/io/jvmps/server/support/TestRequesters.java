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

    /** @return the acknowledgement of a channel of tensor frames sent on {@code route} (an init or a push) */
    public static io.jvmps.common.protocol.PushAck send(RSocketRequester requester, String route,
                                                         java.util.List<org.springframework.core.io.buffer.DataBuffer> frames,
                                                         java.time.Duration wait) {
        return requester.route(route).data(reactor.core.publisher.Flux.fromIterable(frames),
                        org.springframework.core.io.buffer.DataBuffer.class)
                .retrieveFlux(io.jvmps.common.protocol.PushAck.class).single().block(wait);
    }

    /** @return the slices a dense pull of {@code keys} at {@code minVersion} streams back, by key, in answer order */
    public static java.util.Map<Long, TestTensors.Pulled> pull(RSocketRequester requester, long minVersion,
                                                               java.time.Duration wait, long... keys) {
        java.util.List<org.springframework.core.io.buffer.DataBuffer> frames = requester
                .route(io.jvmps.common.protocol.Routes.DENSE_PULL).data(TestTensors.request(minVersion, 0, keys))
                .retrieveFlux(org.springframework.core.io.buffer.DataBuffer.class).collectList().block(wait);
        return TestTensors.assemble(frames);
    }

    /** @return composite metadata with one routing entry naming {@code route}, for raw RSocket requests */
    public static io.netty.buffer.ByteBuf routed(String route) {
        return io.jvmps.common.codec.RouteMetadata.encode(route);
    }

    /** @return a JSON requester on {@code localhost:port} that sends the test secret */
    public static RSocketRequester connect(RSocketRequester.Builder builder, int port) {
        return builder.setupMetadata(SECRET, MimeType.valueOf(ClusterSecret.SETUP_MIME_TYPE))
                .dataMimeType(MimeTypeUtils.APPLICATION_JSON).tcp("localhost", port);
    }
}
