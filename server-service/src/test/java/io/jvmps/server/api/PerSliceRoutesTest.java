package io.jvmps.server.api;

import io.jvmps.common.protocol.PushAck;
import io.jvmps.common.protocol.Routes;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.support.ServerSpringTest;
import io.jvmps.server.support.TestRequesters;
import io.jvmps.server.support.TestTensors;
import io.jvmps.server.support.TestTensors.Pulled;
import io.jvmps.server.support.TestTensors.Tensor;
import io.rsocket.exceptions.ApplicationErrorException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.rsocket.server.LocalRSocketServerPort;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.messaging.rsocket.RSocketRequester;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.jvmps.server.support.TestTensors.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code ps.server.push-apply=PER_SLICE} over real RSocket: one worker, SYNC, SGD at 0.5 ({@code p -= 0.5 g}).
 * Each slice is applied as it lands: a push rejected at a later slice keeps the earlier ones (and says so), and a
 * retry with the push's tag applies only the slices not applied yet.
 */
@ServerSpringTest
@TestPropertySource(properties = "ps.server.push-apply=PER_SLICE")
class PerSliceRoutesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Autowired
    RSocketRequester.Builder builder;
    @LocalRSocketServerPort
    int port;
    @Autowired
    io.jvmps.server.consistency.PushLedger ledger;
    RSocketRequester requester;

    @BeforeEach
    void connect() {
        requester = TestRequesters.connect(builder, port);
    }

    @AfterEach
    void close() {
        requester.dispose();
    }

    private PushAck send(String route, List<DataBuffer> frames) {
        return TestRequesters.send(requester, route, frames, WAIT);
    }

    private PushAck push(long step, long tag, Tensor... tensors) {
        return send(Routes.DENSE_PUSH, TestTensors.frames(step, 0, tag, tensors));
    }

    private Map<Long, Pulled> pull(long minVersion, long... keys) {
        return TestRequesters.pull(requester, minVersion, WAIT, keys);
    }

    @Test
    void pushesApplyExactlyAsWholePushesDo() {
        long a = SliceKey.of(1, 0);
        long b = SliceKey.of(1, 1);
        send(Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensor(a, 1, 2, 3, 4), tensor(b, -1)));
        for (int step = 0; step < 3; step++) {
            assertThat(push(step, 0, tensor(a, 0.25f, 0.5f, -2f, 0f), tensor(b, 1f)))
                    .isEqualTo(new PushAck(0, step, 2, 5));
        }
        Map<Long, Pulled> after = pull(3, a, b);
        assertThat(after.get(a).values()).containsExactly(0.625f, 1.25f, 6f, 4f);
        assertThat(after.get(b).values()).containsExactly(-2.5f);
        assertThat(after.get(a).version()).isEqualTo(3);
    }

    @Test
    void aPushRejectedAtItsSecondSliceKeepsTheFirstAndItsRetryAppliesOnlyTheRest() {
        long a = SliceKey.of(2, 0);
        long b = SliceKey.of(2, 1);
        send(Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensor(a, 1, 1), tensor(b, 5)));
        long tag = (3L << 40) | 1;

        assertThatThrownBy(() -> push(0, tag, tensor(a, 1f, 2f), tensor(b, Float.NaN)))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[NON_FINITE] ")
                .hasMessageContaining("p2/s1 element 0 is NaN")
                .hasMessageContaining("1 slice(s) of this push before it were applied");
        Map<Long, Pulled> partly = pull(0, a, b);
        assertThat(partly.get(a).values()).containsExactly(0.5f, 0f);
        assertThat(partly.get(a).version()).isEqualTo(1);
        assertThat(partly.get(b).values()).containsExactly(5f);
        assertThat(partly.get(b).version()).isZero();

        long duplicatesBefore = ledger.duplicates();
        assertThat(push(0, tag, tensor(a, 1f, 2f), tensor(b, 2f))).isEqualTo(new PushAck(0, 0, 2, 3));
        Map<Long, Pulled> whole = pull(1, a, b);
        assertThat(whole.get(a).values()).as("not applied twice").containsExactly(0.5f, 0f);
        assertThat(whole.get(a).version()).isEqualTo(1);
        assertThat(whole.get(b).values()).containsExactly(4f);
        assertThat(whole.get(b).version()).isEqualTo(1);

        // the acknowledgement lost: the same push again changes nothing and gets the same answer
        assertThat(push(0, tag, tensor(a, 1f, 2f), tensor(b, 2f))).isEqualTo(new PushAck(0, 0, 2, 3));
        assertThat(pull(1, a, b).get(b).values()).containsExactly(4f);
        assertThat(ledger.duplicates()).isEqualTo(duplicatesBefore + 1);
    }

    @Test
    void aSliceRefusedByThePolicyStopsTheSlicesAfterIt() {
        long a = SliceKey.of(4, 0);
        long b = SliceKey.of(4, 1);
        long c = SliceKey.of(4, 2);
        send(Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensor(a, 1), tensor(b, 1), tensor(c, 1)));
        push(0, 0, tensor(b, 2f)); // b alone moves on to step 1

        assertThatThrownBy(() -> push(0, 0, tensor(a, 2f), tensor(b, 2f), tensor(c, 2f)))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[WRONG_STEP] ")
                .hasMessageContaining("p4/s1 is at step 1")
                .hasMessageContaining("1 slice(s) of this push before it were applied");
        Map<Long, Pulled> after = pull(0, a, b, c);
        assertThat(after.get(a).values()).containsExactly(0f);
        assertThat(after.get(b).values()).containsExactly(0f);
        assertThat(after.get(c).values()).as("after the refused slice: not applied").containsExactly(1f);
        assertThat(after.get(c).version()).isZero();
    }

    @Test
    void aPushRefusedAtItsFirstSliceChangesNothing() {
        long a = SliceKey.of(3, 0);
        send(Routes.DENSE_INIT, TestTensors.frames(-1, 0, tensor(a, 1, 1)));
        assertThatThrownBy(() -> push(1, 0, tensor(a, 1f, 1f))).isInstanceOf(ApplicationErrorException.class)
                .hasMessageStartingWith("[WRONG_STEP] ").hasMessageNotContaining("were applied");
        assertThatThrownBy(() -> push(0, 0, tensor(a, Float.POSITIVE_INFINITY, 1f)))
                .hasMessageStartingWith("[NON_FINITE] ").hasMessageNotContaining("were applied");
        assertThat(pull(0, a).get(a).values()).containsExactly(1f, 1f);
        assertThat(pull(0, a).get(a).version()).isZero();
    }
}
