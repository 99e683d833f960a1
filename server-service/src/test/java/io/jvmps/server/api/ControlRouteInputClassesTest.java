package io.jvmps.server.api;

import io.jvmps.common.protocol.Routes;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.test.web.reactive.server.WebTestClient;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.jvmps.common.testing.JsonBodies.badValues;
import static io.jvmps.common.testing.JsonBodies.body;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every field of every JSON control route (dense declare, join, recover, sparse declare), in whole classes of bad
 * input: a value of the wrong type (a string for a number, an object, an array), out of range, missing or null
 * where it is required, given twice. Each is answered {@code [INVALID_ARGUMENT]} with a message naming the field,
 * changes nothing (the server's status is as before), and puts no stack trace in the log.
 */
@ServerSpringTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(OutputCaptureExtension.class)
class ControlRouteInputClassesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    /** A route, a valid body (field order kept), the fields that must be present, and bad values per field. */
    private record Route(String route, Map<String, Object> body, List<String> required, Map<String, String> outOfRange) {
    }

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    WebTestClient http;
    RSocketRequester requester;

    @BeforeAll
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterAll
    void close() {
        requester.dispose();
    }

    private static List<Route> routes() {
        return List.of(
                new Route(Routes.DENSE_DECLARE, body("params", List.of(body("name", "w", "shape", List.of(4))),
                        "servers", "server-0-aaaa"), List.of("params"),
                        Map.of("params", "[]")),
                new Route(Routes.JOIN, body("rank", 0, "nodeId", "worker-0-aaaa", "step", 0), List.of("nodeId"),
                        Map.of("rank", "-1", "step", "-3")),
                new Route(Routes.RECOVER, body("servers", "server-0-aaaa", "step", -1), List.of("servers"),
                        Map.of("step", "-2")),
                new Route(Routes.SPARSE_DECLARE, body("name", "emb", "dim", 4, "seed", 1, "initScale", 0.01,
                        "optimizer", "SGD", "initRows", 10), List.of("name"),
                        Map.of("dim", "0", "initScale", "-1", "initRows", "-5", "name", "\"no spaces\"",
                                "optimizer", "\"NOPE\"")));
    }

    /** @return (route, field, what, JSON) for every field of every route and every class of bad value */
    Stream<Object[]> cases() {
        return routes().stream().flatMap(route -> badValues(route.route(), route.body(), route.required(),
                route.outOfRange()).stream());
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @MethodSource("cases")
    void aBadValueIsRefusedNamingItsFieldAndChangesNothing(String route, String field, String what, String body,
                                                          CapturedOutput output) {
        String before = state();
        assertThatThrownBy(() -> requester.route(route).data(body).retrieveMono(String.class).block(WAIT))
                .as(body).hasMessageStartingWith("[INVALID_ARGUMENT] ").hasMessageContaining(field);
        assertThat(state()).as("nothing changed").isEqualTo(before);
        assertThat(output.getAll()).doesNotContain("\tat ");
    }

    private String state() {
        return http.get().uri("/api/v1/status").exchange().expectBody(String.class).returnResult().getResponseBody();
    }
}
