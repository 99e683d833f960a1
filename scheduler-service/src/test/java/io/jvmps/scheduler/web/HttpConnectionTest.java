package io.jvmps.scheduler.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * How the scheduler's HTTP server treats connections: one request per connection, a request refused before its
 * body is read closes its connection, a body over the limit is read to its end and answered 413 whole. Raw
 * sockets, so no client library's pooling hides what the server does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1"})
@DirtiesContext
class HttpConnectionTest {

    @LocalServerPort
    int port;

    @Test
    void aRejectedRequestWithAnAnnouncedButUnsentBodyClosesItsConnection() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            send(socket, "POST /api/v1/nodes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 64\r\nExpect: 100-continue\r\n\r\n");
            String answer = readUntilClosed(socket);
            assertThat(answer).startsWith("HTTP/1.1 401").containsIgnoringCase("connection: close")
                    .contains("UNAUTHENTICATED");
        }
    }

    @Test
    void aRejectedRequestWithABodyClosesItsConnectionAndTheNextConnectionIsServed() throws IOException {
        String body = "{\"role\":\"server\",\"host\":\"10.9.9.9\",\"rsocketPort\":9000,\"httpPort\":1}";
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            send(socket, "POST /api/v1/nodes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body);
            assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 401").containsIgnoringCase("connection: close");
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            send(socket, "GET /actuator/health/readiness HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 200").contains("\"UP\"");
        }
    }

    @Test
    void everyAnswerClosesItsConnection() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            send(socket, "GET /actuator/health/readiness HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 200").containsIgnoringCase("connection: close");
        }
    }

    /**
     * Many requests in a row through a pooling client, each on the heels of the last: with kept-alive connections
     * Reactor Netty 1.3.6 sometimes stopped reading one and a request was never answered.
     */
    @Test
    void requestsInARowAreAllAnswered() {
        WebTestClient client = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(10)).build();
        for (int i = 0; i < 150; i++) {
            client.get().uri("/actuator/health/readiness").exchange().expectStatus().isOk();
            client.get().uri("/api/v1/status").exchange().expectStatus().isOk();
            client.get().uri("/actuator/prometheus").exchange().expectStatus().isOk();
        }
    }

    @Test
    void aBodyOverTheLimitIsReadToItsEndAndAnswered413Whole() throws Exception {
        int size = 2 << 20;
        for (int attempt = 0; attempt < 3; attempt++) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(10_000);
                send(socket, "POST /api/v1/nodes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + size + "\r\n\r\n");
                Thread sender = new Thread(() -> {
                    try {
                        send(socket, "h".repeat(size));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, "oversize-body-sender");
                sender.setDaemon(true);
                sender.start();
                assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 413").containsIgnoringCase("connection: close")
                        .contains("\"PAYLOAD_TOO_LARGE\"")
                        .contains("request body of 2097152 bytes is over the limit of 262144 bytes "
                                + "(spring.codec.max-in-memory-size)");
                sender.join(10_000);
                assertThat(sender.isAlive()).isFalse();
            }
        }
    }

    private static void send(Socket socket, String request) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Everything the server sends until it closes the connection; fails if it keeps it open past the timeout. */
    private static String readUntilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            fail("the server kept the connection open after answering: "
                    + received.toString(StandardCharsets.US_ASCII));
        }
        return received.toString(StandardCharsets.US_ASCII);
    }
}
