package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.Map;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SspPolicy} driven directly with 2 workers and SGD learning rate 1 ({@code p -= g} per push).
 * Waits run in virtual time, so "pending" and "completed" are checked at exact points.
 */
class SspPolicyTest {
    private static final long A = SliceKey.of(0, 0);
    private static final long[] KEYS = {A};

    private DenseStore store;
    private SspPolicy policy;

    private void start(int staleness) {
        store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(0f, 0f)));
        policy = new SspPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 2, staleness));
    }

    private void push(int worker, long step, float... gradient) {
        policy.accept(PolicyFixture.push(store, worker, step, A, gradient));
    }

    private void pullsAtOnce(int worker, long step) {
        StepVerifier.create(policy.awaitReady(worker, KEYS, step))
                .assertNext(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(A))
                .verifyComplete();
    }

    @Test
    void aWorkerRunsAtMostStalenessStepsAheadOfTheSlowest() {
        start(2);
        for (int step = 0; step <= 2; step++) {
            pullsAtOnce(0, step); // worker 1 has pushed nothing
            push(0, step, 1f, 2f);
        }
        // pushes were applied on arrival, one version each
        assertThat(store.require(A).version()).isEqualTo(3);
        assertThat(PolicyFixture.values(store, A)).containsExactly(-3f, -6f);
        assertThat(policy.workerClocks()).containsExactly(3L, 0L);

        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, KEYS, 3))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(100))
                .then(() -> assertThat(policy.waitingPulls()).isEqualTo(1))
                // worker 0 may not push step 3 before pulling it: 3 is beyond clock 0 + 2
                .then(() -> assertCode(() -> push(0, 3, 1f, 1f), ErrorCode.WRONG_STEP,
                        "worker 0 pushed step 3 but worker 1 is at clock 0 (staleness bound 2)"))
                .expectNoEvent(Duration.ofSeconds(1))
                .then(() -> push(1, 0, 0.5f, 0.5f))
                .assertNext(slices -> {
                    assertThat(slices).extracting(DenseSlice::key).containsExactly(A);
                    assertThat(slices.get(0).version()).isEqualTo(4);
                })
                .verifyComplete();
        assertThat(PolicyFixture.values(store, A)).containsExactly(-3.5f, -6.5f);
        assertThat(policy.waitingPulls()).isZero();
        assertThat(policy.workerClocks()).containsExactly(3L, 1L);
        pullsAtOnce(1, 1);
        assertThat(policy.maxStalenessServed()).as("worker 0 was let through 2 steps ahead of worker 1, never 3")
                .isEqualTo(2);
    }

    @Test
    void theDeadlineNamesTheLaggingWorkerAndItsClock() {
        start(2);
        for (int step = 0; step <= 2; step++) {
            push(0, step, 1f, 1f);
        }
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, KEYS, 3))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(119))
                .thenAwait(Duration.ofSeconds(1))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(PsException.class);
                    assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT);
                    assertThat(e.getMessage())
                            .contains("worker 0 at step 3 waits for worker 1 at clock 0 (staleness bound 2)");
                })
                .verify(Duration.ofSeconds(5));
        assertThat(policy.waitingPulls()).isZero();
    }

    @Test
    void stalenessZeroIsLockstep() {
        start(0);
        pullsAtOnce(0, 0);
        push(0, 0, 1f, 1f);
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, KEYS, 1))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(10))
                .then(() -> pullsAtOnce(1, 0))
                .expectNoEvent(Duration.ofSeconds(10))
                .then(() -> assertCode(() -> push(0, 1, 1f, 1f), ErrorCode.WRONG_STEP, "staleness bound 0"))
                .then(() -> push(1, 0, 1f, 1f))
                .expectNextCount(1)
                .verifyComplete();
        pullsAtOnce(1, 1);
        push(0, 1, 1f, 1f);
        assertThat(store.require(A).version()).isEqualTo(3);
        assertThat(policy.workerClocks()).containsExactly(2L, 1L);
    }

    @Test
    void stepsOfAWorkerMustIncreaseAndARejectedPushChangesNothing() {
        start(3);
        push(0, 0, 1f, 1f);
        push(0, 2, 1f, 1f); // a skipped step is allowed
        assertCode(() -> push(0, 2, 9f, 9f), ErrorCode.DUPLICATE_PUSH, "worker 0 already pushed step 2");
        assertCode(() -> push(0, 1, 9f, 9f), ErrorCode.WRONG_STEP, "worker 0 pushed step 1 after step 2");
        assertCode(() -> push(1, -1, 9f, 9f), ErrorCode.WRONG_STEP, "steps start at 0");
        assertCode(() -> push(5, 0, 9f, 9f), ErrorCode.INVALID_ARGUMENT, "sender rank 5");
        assertThat(PolicyFixture.values(store, A)).containsExactly(-2f, -2f);
        assertThat(store.require(A).version()).isEqualTo(2);
        assertThat(policy.pushesAccepted()).isEqualTo(2);
        assertThat(policy.workerClocks()).containsExactly(3L, 0L);
    }

    @Test
    void aWorkerTakingOverARankJoinsAtItsClock() {
        start(2);
        push(0, 0, 1f, 1f);
        push(1, 0, 1f, 1f);
        push(1, 1, 1f, 1f);
        assertThat(policy.join(new io.jvmps.common.protocol.JoinRequest(1, "new", 0), 3))
                .isEqualTo(new io.jvmps.common.protocol.JoinAnswer(3, false, 2));
        assertThat(policy.join(new io.jvmps.common.protocol.JoinRequest(1, "new", 2), 3))
                .isEqualTo(new io.jvmps.common.protocol.JoinAnswer(3, true, 2));
        push(1, 2, 1f, 1f); // the new worker goes on at its predecessor's next step
        assertThat(policy.workerClocks()).containsExactly(1L, 3L);
    }

    @Test
    void aCancelledPullIsForgotten() {
        start(0);
        push(0, 0, 1f, 1f);
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, KEYS, 1))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(1))
                .thenCancel()
                .verify(Duration.ofSeconds(5));
        assertThat(policy.waitingPulls()).isZero();
    }

    @Test
    void aPullWaitsForInitialisationOnceTheClocksAllowIt() {
        start(1);
        long late = SliceKey.of(9, 0);
        StepVerifier.withVirtualTime(() -> policy.awaitReady(1, new long[] {late}, 0))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(10))
                .then(() -> store.initialize(Map.of(late, Nd4j.createFromArray(1f))))
                .expectNextCount(1)
                .verifyComplete();
        StepVerifier.withVirtualTime(() -> policy.awaitReady(1, new long[] {SliceKey.of(9, 1)}, 0))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(120))
                .expectErrorSatisfies(e -> assertThat(e).hasMessageStartingWith("[TIMEOUT] ")
                        .hasMessageContaining("p9/s1 not initialised"))
                .verify(Duration.ofSeconds(5));
    }
}
