package io.jvmps.server.api;

import io.jvmps.common.protocol.DenseDeclaration;
import io.jvmps.common.protocol.DenseDeclared;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.server.support.TestRequesters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.messaging.rsocket.RSocketRequester;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server 1 of 2 in SYNC when the job's whole dense model is one 1-element bias, whose only slice server 0 holds:
 * the declaration gives this server nothing to hold, and a worker's join is still accepted (no step waits here).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.rsocket.server.port=0",
        "ps.scheduler.enabled=false",
        "ps.server.rank=1",
        "ps.cluster.server-num=2",
        "ps.cluster.worker-num=1",
        "ps.consistency.mode=SYNC"})
class SliceLessServerJoinTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    RSocketRequester.Builder builder;
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

    @Test
    void aServerHoldingNoSliceOfTheModelAcceptsTheJoin() {
        DenseDeclared declared = requester.route(Routes.DENSE_DECLARE)
                .data(new DenseDeclaration(List.of(new ParamSpec("bias", new long[] {1})), "server-0,server-1"))
                .retrieveMono(DenseDeclared.class).block(WAIT);
        assertThat(declared.step()).isZero();
        JoinAnswer answer = requester.route(Routes.JOIN).data(new JoinRequest(0, "worker-0-aaaa", 0))
                .retrieveMono(JoinAnswer.class).block(WAIT);
        assertThat(answer.accepted()).as(String.valueOf(answer)).isTrue();
        assertThat(answer.rank()).isEqualTo(1);
    }
}
