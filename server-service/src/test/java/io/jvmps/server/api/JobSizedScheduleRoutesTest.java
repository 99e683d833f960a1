package io.jvmps.server.api;

import io.jvmps.common.protocol.DenseDeclaration;
import io.jvmps.common.protocol.DenseDeclared;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.support.TestRequesters;
import io.jvmps.server.support.TestTensors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.messaging.rsocket.RSocketRequester;

import java.time.Duration;
import java.util.List;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server with {@code ps.optimizer.schedule=COSINE} and no {@code total-steps}: the worker's declaration says the
 * job is 4 updates long, and the SGD rate (1) decays over exactly those 4: 1, 0.854, 0.5, 0.146, so a gradient of 1
 * pushed 4 times moves a value by 2.5 (a constant rate would move it by 4).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.rsocket.server.port=0",
        "ps.scheduler.enabled=false",
        "ps.cluster.worker-num=1",
        "ps.optimizer.type=SGD",
        "ps.optimizer.learning-rate=1",
        "ps.optimizer.schedule=COSINE"})
class JobSizedScheduleRoutesTest {
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
    void theCosineDecaysOverTheLengthTheJobDeclared() {
        DenseDeclared declared = requester.route(Routes.DENSE_DECLARE)
                .data(new DenseDeclaration(List.of(new ParamSpec("w", new long[] {2})), "server-0", 4L))
                .retrieveMono(DenseDeclared.class).block(WAIT);
        assertThat(declared.step()).isZero();
        long key = SliceKey.of(0, 0);
        TestRequesters.send(requester, Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensor(key, 0f, 0f)), WAIT);
        for (int step = 0; step < 4; step++) {
            TestRequesters.send(requester, Routes.DENSE_PUSH, TestTensors.frames(step, 0, tensor(key, 1f, 2f)), WAIT);
        }
        float[] values = TestRequesters.pull(requester, 4, WAIT, key).get(key).values();
        assertThat(values[0]).isCloseTo(-2.5f, org.assertj.core.data.Offset.offset(1e-5f));
        assertThat(values[1]).isCloseTo(-5f, org.assertj.core.data.Offset.offset(1e-5f));
    }
}
