package io.jvmps.scheduler.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A request refused for its missing secret leaves its body unread; the connection it came on must not be reused,
 * or the client's next request on it is read as the rest of that body and never answered. Raw sockets, so no
 * client library's pooling hides what the server does.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.cluster.server-num=1", "ps.cluster.worker-num=1"})
@DirtiesContext
class RejectedRequestConnectionTest {

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
