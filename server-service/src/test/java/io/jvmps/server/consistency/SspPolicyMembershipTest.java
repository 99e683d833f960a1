package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link SspPolicy} with 3 workers, staleness 1, following the scheduler's view of who is live. */
class SspPolicyMembershipTest {
    private static final long A = SliceKey.of(0, 0);
    private static final long[] KEYS = {A};

    private final DenseStore store = new DenseStore();
    private final LiveWorkers live = new LiveWorkers(3);
    private final SspPolicy policy;

    SspPolicyMembershipTest() {
        store.initialize(Map.of(A, Nd4j.createFromArray(0f)));
        policy = new SspPolicy(new PolicyContext(store, PolicyFixture.sgd(1), 3, Duration.ofSeconds(120), 1,
                SliceUpdateListener.NONE, live));
    }

    private void push(int worker, long step) {
        policy.accept(PolicyFixture.push(store, worker, step, A, new float[] {1f}));
    }

    @Test
    void aDeadWorkerHoldsNobodyBackAndItsRankCountsAgainOnceAReplacementJoins() throws Exception {
        for (int w = 0; w < 3; w++) {
            push(w, 0);
        }
        push(0, 1);
        push(1, 1);
        // worker 2 died at clock 1: a pull for step 3 needs every live clock at 2 or more
        CompletableFuture<List<DenseSlice>> pull = policy.awaitReady(0, KEYS, 3).toFuture();
        assertThat(pull).isNotDone();
        assertCode(() -> push(0, 3), ErrorCode.WRONG_STEP, "worker 2 is at clock 1 (staleness bound 1)");

        live.drop(Map.of(2, "worker-2-a"));
        assertThat(pull.get(5, TimeUnit.SECONDS)).extracting(DenseSlice::key).containsExactly(A);
        push(0, 3);
        push(1, 2);
        push(1, 3);
        assertCode(() -> push(2, 1), ErrorCode.INVALID_ARGUMENT, "worker 2 was dropped");
        assertThat(policy.workerClocks()).containsExactly(4L, 4L, 1L);

        // a replacement takes rank 2 at its clock; the others now wait for it to come within the bound
        assertThat(policy.join(new JoinRequest(2, "worker-2-b", 1), 0)).isEqualTo(new JoinAnswer(0, true, 1));
        CompletableFuture<List<DenseSlice>> next = policy.awaitReady(0, KEYS, 4).toFuture();
        assertThat(next).isNotDone();
        push(2, 1);
        assertThat(next).isNotDone();
        push(2, 2);
        assertThat(next.get(5, TimeUnit.SECONDS)).hasSize(1);
        assertThat(policy.workerClocks()).containsExactly(4L, 4L, 3L);
        assertThat(store.require(A).version()).isEqualTo(10);
    }

    @Test
    void aDeadlineNamesOnlyLiveLaggards() {
        push(0, 0);
        live.drop(Map.of(2, "worker-2-a"));
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, KEYS, 2))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(120))
                .expectErrorSatisfies(e -> assertThat(e).hasMessageStartingWith("[TIMEOUT] ")
                        .hasMessageContaining("waits for worker 1 at clock 0 (staleness bound 1)")
                        .hasMessageNotContaining("worker 2"))
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void whenEveryOtherWorkerLeftTheLastOneRunsFree() {
        push(0, 0);
        live.drop(Map.of(1, "worker-1-a", 2, "worker-2-a"));
        for (long step = 1; step < 10; step++) {
            StepVerifier.create(policy.awaitReady(0, KEYS, step)).expectNextCount(1).verifyComplete();
            push(0, step);
        }
        assertThat(policy.workerClocks()).containsExactly(10L, 0L, 0L);
    }
}
