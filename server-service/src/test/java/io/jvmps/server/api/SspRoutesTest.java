package io.jvmps.server.api;

import io.jvmps.server.support.TestRequesters;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.monitor.ServerStatus;
import io.jvmps.server.support.TestTensors;
import io.jvmps.server.support.TestTensors.Tensor;
import io.rsocket.exceptions.ApplicationErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import java.time.Duration;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A server in SSP mode (2 workers, staleness 2, SGD learning rate 1) over TCP: the describe route,
 * the bounded wait of a pull, the deadline message and the clocks on both status endpoints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.rsocket.server.port=0",
        "ps.scheduler.enabled=false",
        "ps.cluster.worker-num=2",
        "ps.consistency.mode=SSP",
        "ps.consistency.staleness=2",
        "ps.optimizer.type=SGD",
        "ps.optimizer.learning-rate=1",
        "ps.server.pull-timeout=2s"})
@AutoConfigureWebTestClient
class SspRoutesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long KEY = SliceKey.of(0, 0);

    @Autowired
    RSocketRequester.Builder builder;
    @Autowired
    WebTestClient http;
    @LocalRSocketServerPort
    int port;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private PushAck send(String route, long step, int sender, Tensor tensor) {
        return requester.route(route).data(Flux.fromIterable(TestTensors.frames(step, sender, tensor)), DataBuffer.class)
                .retrieveFlux(PushAck.class).single().block(WAIT);
    }

    private Flux<DataBuffer> pull(long step, int sender) {
        return requester.route(Routes.DENSE_PULL).data(TestTensors.request(step, sender, KEY))
                .retrieveFlux(DataBuffer.class);
    }

    private float[] pullNow(long step, int sender) {
        return TestTensors.assemble(pull(step, sender).collectList().block(WAIT)).get(KEY).values();
    }

    @Test
    void describesSspWithItsStaleness() {
        ServerDescription d = requester.route(Routes.SERVER_DESCRIBE).retrieveMono(ServerDescription.class)
                .block(WAIT);
        // over the wire (JSON), the optimizer's settings included
        assertThat(d).isEqualTo(new ServerDescription(0, 2, ConsistencyMode.SSP, 2, 0, 0.0, "SGD",
                new OptimizerSettings(1.0, 0.9, false, 0.9, 0.999, 1e-8, 0.1, 0, 0, 1.0,
                        new ScheduleSettings(ScheduleType.CONSTANT, 0, 1000, 0.1, 0, 0))));
    }

    @Test
    void aWorkerWaitsForTheSlowestOnlyBeyondTheBound() {
        send(Routes.DENSE_INIT, -1, 0, tensor(KEY, 0f, 0f));
        for (int step = 0; step <= 2; step++) {
            pullNow(step, 0); // worker 1 has pushed nothing yet
            send(Routes.DENSE_PUSH, step, 0, tensor(KEY, 1f, 2f));
        }
        StepVerifier.create(pull(3, 0).collectList())
                .expectSubscription()
                .expectNoEvent(Duration.ofMillis(300))
                .then(() -> send(Routes.DENSE_PUSH, 0, 1, tensor(KEY, 0.5f, 0.5f)))
                .assertNext(frames -> {
                    TestTensors.Pulled pulled = TestTensors.assemble(frames).get(KEY);
                    assertThat(pulled.values()).containsExactly(-3.5f, -6.5f);
                    assertThat(pulled.version()).isEqualTo(4);
                })
                .verifyComplete();

        assertThatThrownBy(() -> pullNow(4, 0)).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[TIMEOUT] ")
                .hasMessageContaining("worker 0 at step 4 waits for worker 1 at clock 1 (staleness bound 2)");
        assertThatThrownBy(() -> send(Routes.DENSE_PUSH, 0, 1, tensor(KEY, 1f, 1f)))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[DUPLICATE_PUSH] ");

        ServerStatus status = requester.route(Routes.SERVER_STATUS).retrieveMono(ServerStatus.class).block(WAIT);
        assertThat(status.consistency()).isEqualTo("SSP");
        assertThat(status.staleness()).isEqualTo(2);
        assertThat(status.geoInterval()).isZero();
        assertThat(status.workerClocks()).containsExactly(3L, 1L);
        http.get().uri("/api/v1/status").exchange()
                .expectStatus().isOk()
                .expectBody()
                .jsonPath("$.consistency").isEqualTo("SSP")
                .jsonPath("$.staleness").isEqualTo(2)
                .jsonPath("$.workerClocks[0]").isEqualTo(3)
                .jsonPath("$.workerClocks[1]").isEqualTo(1);
    }

    @Test
    void aPullFromAWorkerOutsideTheJobIsRejected() {
        assertThatThrownBy(() -> pull(0, 7).blockLast(WAIT)).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[INVALID_ARGUMENT] ")
                .hasMessageContaining("sender rank 7");
    }
}
