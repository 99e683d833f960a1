package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.jvmps.server.support.TestTensors;
import io.rsocket.exceptions.ApplicationErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.test.context.TestPropertySource;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Memory on a server is bounded by its configuration, not by its clients: dense slices up to
 * {@code ps.server.max-dense-bytes} (8 KiB here), and inbound streams holding at most
 * {@code ps.server.max-inflight-bytes} (6000 bytes here) at once, given back when a stream stalls
 * (the shared test server's 2 s idle timeout), and a connection without SETUP closed after 1 s.
 */
@ServerSpringTest
@TestPropertySource(properties = {
        "ps.server.max-dense-bytes=8192",
        "ps.server.max-inflight-bytes=6000",
        "ps.server.setup-timeout=1s"})
class ServerMemoryLimitsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    ChannelReader reader;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private PushAck send(String route, Flux<DataBuffer> frames) {
        return requester.route(route).data(frames, DataBuffer.class).retrieveFlux(PushAck.class).single().block(WAIT);
    }

    @Test
    void aConnectionThatSendsNoSetupOrNoRSocketIsClosedAfterTheSetupTimeout() throws Exception {
        for (byte[] junk : new byte[][] {new byte[0], "GET / HTTP/1.1\r\n\r\n".getBytes()}) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(junk);
                socket.getOutputStream().flush();
                long started = System.nanoTime();
                int read;
                try {
                    while ((read = socket.getInputStream().read()) != -1) {
                        // a rejection frame may come first; the connection must then close
                    }
                } catch (java.net.SocketException reset) {
                    read = -1;
                }
                assertThat(read).isEqualTo(-1);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as("closed within the setup timeout")
                        .isLessThan(Duration.ofSeconds(5));
            }
        }
        assertThat(TestRequesters.connect(builder, port).route(Routes.SERVER_STATUS).retrieveMono(String.class)
                .block(WAIT)).as("the server still serves").contains("\"rank\"");
    }

    @Test
    void initBeyondTheDenseCapAndStreamsBeyondTheInflightCapAreRefusedAndTheBudgetComesBack() throws Exception {
        long a = SliceKey.of(1, 0);
        float[] ones = new float[1024];
        java.util.Arrays.fill(ones, 1f);
        send(Routes.DENSE_INIT, Flux.fromIterable(TestTensors.frames(-1, 0, tensor(a, ones))));

        long b = SliceKey.of(1, 1);
        assertThatThrownBy(() -> send(Routes.DENSE_INIT, Flux.fromIterable(TestTensors.frames(-1, 0,
                tensor(b, new float[1500])))))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[RESOURCE_EXHAUSTED] ").hasMessageContaining("ps.server.max-dense-bytes=8192");

        // one push of slice a (4096 bytes) that stalls holds its reservation; a second one does not fit
        CompletableFuture<PushAck> stalled = requester.route(Routes.DENSE_PUSH)
                .data(Flux.concat(Flux.fromIterable(TestTensors.frames(0, 0, tensor(a, ones))), Flux.never()),
                        DataBuffer.class)
                .retrieveFlux(PushAck.class).single().toFuture();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (reader.budget().used() < 4096 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(reader.budget().used()).isEqualTo(4096);
        assertThatThrownBy(() -> send(Routes.DENSE_PUSH, Flux.fromIterable(TestTensors.frames(0, 0, tensor(a, ones)))))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[RESOURCE_EXHAUSTED] ").hasMessageContaining("ps.server.max-inflight-bytes=6000");

        assertThatThrownBy(() -> stalled.get(10, java.util.concurrent.TimeUnit.SECONDS))
                .hasMessageContaining("[TIMEOUT]");
        long released = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (reader.budget().used() != 0 && System.nanoTime() < released) {
            Thread.onSpinWait(); // the release runs right after the error went out
        }
        assertThat(reader.budget().used()).as("the stalled stream's reservation is back").isZero();
        PushAck applied = send(Routes.DENSE_PUSH, Flux.fromIterable(TestTensors.frames(0, 0, tensor(a, ones))));
        assertThat(applied.slices()).isEqualTo(1);
        List<DataBuffer> pulled = requester.route(Routes.DENSE_PULL).data(TestTensors.request(1, 0, a))
                .retrieveFlux(DataBuffer.class).collectList().block(WAIT);
        assertThat(TestTensors.assemble(pulled).get(a).values()[0]).as("1 - 0.5 x 1, applied once").isEqualTo(0.5f);
    }
}
