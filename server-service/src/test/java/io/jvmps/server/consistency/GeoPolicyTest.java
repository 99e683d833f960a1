package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link GeoPolicy} driven directly: 2 workers, 2 rounds of deltas over two slices. The context's
 * optimizer is SGD with learning rate 0.5, so a delta scaled by 0.5 would show the optimizer was
 * used.
 */
class GeoPolicyTest {
    private static final long A = SliceKey.of(0, 0);
    private static final long B = SliceKey.of(1, 0);

    private DenseStore store;
    private GeoPolicy policy;

    @BeforeEach
    void setUp() {
        store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(1f, 2f), B, Nd4j.createFromArray(10f)));
        policy = new GeoPolicy(PolicyFixture.context(store, PolicyFixture.sgd(0.5), 2, 0));
    }

    private void push(int worker, long round, float[] a, float[] b) {
        policy.accept(PolicyFixture.push(store, worker, round, A, a, B, b));
    }

    @Test
    void deltasOfTwoWorkersAreAddedAndTheFinalPullWaitsForTheLastOne() {
        // final pull of worker 0 after 2 rounds: minVersion = rounds = 2, from every live worker
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, new long[] {A, B}, 2))
                .expectSubscription()
                .then(() -> push(0, 0, new float[] {0.5f, -1f}, new float[] {1f}))
                .then(() -> push(1, 0, new float[] {0.25f, 0.25f}, new float[] {-2f}))
                .then(() -> push(0, 1, new float[] {1f, 1f}, new float[] {0.5f}))
                .expectNoEvent(Duration.ofSeconds(60))
                .then(() -> {
                    assertThat(store.require(A).version()).isEqualTo(3);
                    // A: [1, 2] + [0.5, -1] + [0.25, 0.25] + [1, 1]
                    assertThat(PolicyFixture.values(store, A)).containsExactly(2.75f, 2.25f);
                })
                .then(() -> push(1, 1, new float[] {-0.5f, 2f}, new float[] {0.25f}))
                .assertNext(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(A, B))
                .verifyComplete();

        // initial + sum of all deltas: A = [1 + 0.5 + 0.25 + 1 - 0.5, 2 - 1 + 0.25 + 1 + 2], B = 10 + 1 - 2 + 0.5 + 0.25
        assertThat(PolicyFixture.values(store, A)).containsExactly(2.25f, 4.25f);
        assertThat(PolicyFixture.values(store, B)).containsExactly(9.75f);
        assertThat(store.require(A).version()).isEqualTo(4);
        assertThat(store.require(B).version()).isEqualTo(4);
        assertThat(policy.pushesAccepted()).isEqualTo(4);
        assertThat(policy.updatesApplied()).isEqualTo(8);
        assertThat(policy.workerClocks()).containsExactly(2L, 2L);
    }

    @Test
    void aPullWithMinVersionZeroDoesNotWait() {
        push(0, 0, new float[] {1f, 1f}, new float[] {1f});
        StepVerifier.create(policy.awaitReady(1, new long[] {B, A}, 0))
                .assertNext(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(B, A))
                .verifyComplete();
    }

    @Test
    void roundsOfAWorkerMustIncreaseAndARejectedPushChangesNothing() {
        push(0, 0, new float[] {1f, 1f}, new float[] {1f});
        push(0, 2, new float[] {1f, 1f}, new float[] {1f}); // a skipped round is allowed
        assertCode(() -> push(0, 2, new float[] {5f, 5f}, new float[] {5f}), ErrorCode.DUPLICATE_PUSH,
                "worker 0 already pushed round 2");
        assertCode(() -> push(0, 1, new float[] {5f, 5f}, new float[] {5f}), ErrorCode.WRONG_STEP,
                "worker 0 pushed round 1 after round 2");
        assertCode(() -> push(1, -1, new float[] {5f, 5f}, new float[] {5f}), ErrorCode.WRONG_STEP,
                "rounds start at 0");
        assertCode(() -> push(2, 0, new float[] {5f, 5f}, new float[] {5f}), ErrorCode.INVALID_ARGUMENT,
                "sender rank 2");
        assertThat(PolicyFixture.values(store, A)).containsExactly(3f, 4f);
        assertThat(store.require(A).version()).isEqualTo(2);
        assertThat(policy.workerClocks()).containsExactly(3L, 0L);
    }

    @Test
    void pullDeadlineSaysHowManyRoundsEachWorkerPushed() {
        push(1, 0, new float[] {1f, 1f}, new float[] {1f});
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, new long[] {A}, 2))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(120))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(PsException.class);
                    assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT);
                    assertThat(e.getMessage()).contains("worker 0 waits for 2 rounds from every live worker; "
                            + "behind: worker 0 at clock 0, worker 1 at clock 1");
                })
                .verify(Duration.ofSeconds(5));
        assertThat(policy.waitingPulls()).isZero();
    }

    @Test
    void theFinalPullWaitsOnlyForLiveWorkersAndADroppedRankMayNotPush() throws Exception {
        LiveWorkers live = new LiveWorkers(3);
        GeoPolicy three = new GeoPolicy(new PolicyContext(store, PolicyFixture.sgd(0.5), 3, Duration.ofSeconds(120),
                0, SliceUpdateListener.NONE, live));
        for (int w = 0; w < 3; w++) {
            three.accept(PolicyFixture.push(store, w, 0, A, new float[] {1f, 1f}, B, new float[] {1f}));
        }
        three.accept(PolicyFixture.push(store, 0, 1, A, new float[] {1f, 1f}, B, new float[] {1f}));
        three.accept(PolicyFixture.push(store, 1, 1, A, new float[] {1f, 1f}, B, new float[] {1f}));
        java.util.concurrent.CompletableFuture<List<DenseSlice>> last =
                three.awaitReady(0, new long[] {A, B}, 2).toFuture();
        assertThat(last).isNotDone(); // worker 2 has pushed one round of two

        live.drop(Map.of(2, "worker-2-a"));
        assertThat(last.get(5, java.util.concurrent.TimeUnit.SECONDS)).hasSize(2);
        assertCode(() -> three.accept(PolicyFixture.push(store, 2, 1, A, new float[] {9f, 9f}, B, new float[] {9f})),
                ErrorCode.INVALID_ARGUMENT, "worker 2 was dropped");
        assertThat(PolicyFixture.values(store, A)).containsExactly(6f, 7f);
        assertThat(three.workerClocks()).containsExactly(2L, 2L, 1L);

        // a replacement takes rank 2 at the round after its predecessor's last delta
        assertThat(three.join(new JoinRequest(2, "worker-2-b", 0), 1)).isEqualTo(new JoinAnswer(1, false, 1));
        assertThat(three.join(new JoinRequest(2, "worker-2-b", 1), 1)).isEqualTo(new JoinAnswer(1, true, 1));
        java.util.concurrent.CompletableFuture<List<DenseSlice>> again =
                three.awaitReady(1, new long[] {A}, 2).toFuture();
        assertThat(again).as("rank 2 counts again").isNotDone();
        three.accept(PolicyFixture.push(store, 2, 1, A, new float[] {1f, 1f}, B, new float[] {1f}));
        assertThat(again.get(5, java.util.concurrent.TimeUnit.SECONDS)).hasSize(1);
        assertThat(PolicyFixture.values(store, A)).containsExactly(7f, 8f);
    }
}
