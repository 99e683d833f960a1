package io.jvmps.scheduler.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ps.security.protect-reads=true}: status, cluster view and metrics need the secret; probes do not.
 * Each request goes out on a new connection with its own deadline: a CI run once saw a pooled keep-alive
 * connection of the reactive test client stall for 30 s on the eleventh request, which said nothing about
 * the rules under test; a stall is retried once on a fresh connection and a second one fails the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ps.security.protect-reads=true"})
class ProtectedReadsTest {
    private static final String SECRET = "test-cluster-secret-0123456789";
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @LocalServerPort
    private int port;

    @Test
    void readsNeedTheSecretButHealthAndInfoDoNot() throws Exception {
        for (String path : new String[] {"/api/v1/status", "/api/v1/cluster", "/api/v1/job", "/actuator/prometheus"}) {
            HttpResponse<String> refused = get(path, null);
            assertThat(refused.statusCode()).as(path + " without the secret").isEqualTo(401);
            assertThat(refused.body()).as(path).contains("\"code\":\"UNAUTHENTICATED\"");
            assertThat(get(path, "wrong-secret-0123456789abcdef").statusCode()).as(path + " with a wrong secret")
                    .isEqualTo(401);
            assertThat(get(path, SECRET).statusCode()).as(path + " with the secret").isEqualTo(200);
        }
        for (String probe : new String[] {"/actuator/health", "/actuator/health/liveness", "/actuator/info"}) {
            assertThat(get(probe, null).statusCode()).as(probe + " without the secret").isEqualTo(200);
        }
    }

    private HttpResponse<String> get(String path, String secret) throws IOException, InterruptedException {
        try {
            return send(path, secret);
        } catch (HttpTimeoutException stalled) {
            return send(path, secret);
        }
    }

    private HttpResponse<String> send(String path, String secret) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(DEADLINE).GET();
        if (secret != null) {
            request.header("Authorization", "Bearer " + secret);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(DEADLINE).build(); // a new connection
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
