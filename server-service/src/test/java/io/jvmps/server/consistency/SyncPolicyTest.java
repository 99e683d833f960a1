package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** BSP semantics of {@link SyncPolicy}, driven directly (no network), with 2 workers and SGD lr 1. */
class SyncPolicyTest {
    private static final long A = SliceKey.of(0, 0);
    private static final long B = SliceKey.of(0, 1);

    private DenseStore store;
    private SyncPolicy policy;

    @BeforeEach
    void setUp() {
        store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(1f, 2f), B, Nd4j.createFromArray(10f, 20f)));
        policy = new SyncPolicy(new PolicyContext(store,
                OptimizerType.SGD.create(new OptimizerSettings(1.0, 0, false, 0.9, 0.999, 1e-8)), 2,
                Duration.ofSeconds(120)));
    }

    private GradientPush push(int sender, long step, Object... keyAndValues) {
        List<GradientPush.SliceGradient> grads = new ArrayList<>();
        for (int i = 0; i < keyAndValues.length; i += 2) {
            grads.add(new GradientPush.SliceGradient(store.require((Long) keyAndValues[i]),
                    Nd4j.createFromArray((float[]) keyAndValues[i + 1])));
        }
        return new GradientPush(sender, step, grads);
    }

    private float[] values(long key) {
        DenseSlice slice = store.require(key);
        slice.lock();
        try {
            return slice.values().toFloatVector();
        } finally {
            slice.unlock();
        }
    }

    private void completeStepZero() {
        policy.accept(push(0, 0, A, new float[] {2, 4}, B, new float[] {1, 1}));
        policy.accept(push(1, 0, A, new float[] {4, 8}, B, new float[] {3, 3}));
    }

    @Test
    void measuresHowLongEachSliceStepWaitedForItsLastGradient() {
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000);
        SyncPolicy timed = new SyncPolicy(new PolicyContext(store,
                OptimizerType.SGD.create(new OptimizerSettings(1.0, 0, false, 0.9, 0.999, 1e-8)), 2,
                Duration.ofSeconds(120)), now::get);
        timed.accept(push(0, 0, A, new float[] {2, 4}, B, new float[] {1, 1}));
        now.addAndGet(250);
        assertThat(timed.stepWaits().steps()).as("nothing completed yet").isZero();
        timed.accept(push(1, 0, A, new float[] {4, 8}, B, new float[] {3, 3}));
        timed.accept(push(1, 1, A, new float[] {1, 1}));
        now.addAndGet(40);
        timed.accept(push(0, 1, A, new float[] {1, 1}));

        assertThat(timed.stepWaits().steps()).as("A and B at step 0, A at step 1").isEqualTo(3);
        assertThat(timed.stepWaits().totalNanos()).isEqualTo(250 + 250 + 40);
        assertThat(timed.stepWaits().maxNanos()).isEqualTo(250);
        assertThat(policy.stepWaits()).as("another policy's record").isNotSameAs(timed.stepWaits());
    }

    @Test
    void appliesTheAverageOnlyOnceEveryWorkerPushed() {
        CompletableFuture<List<DenseSlice>> pull = policy.awaitReady(0, new long[] {A, B}, 1).toFuture();

        policy.accept(push(0, 0, A, new float[] {2, 4}, B, new float[] {1, 1}));
        assertThat(values(A)).containsExactly(1f, 2f);
        assertThat(store.require(A).version()).isZero();
        assertThat(pull).isNotDone();

        policy.accept(push(1, 0, A, new float[] {4, 8}, B, new float[] {3, 3}));
        // average of A's gradients is [3, 6]: [1, 2] - [3, 6]; of B's [2, 2]: [10, 20] - [2, 2]
        assertThat(values(A)).containsExactly(-2f, -4f);
        assertThat(values(B)).containsExactly(8f, 18f);
        assertThat(store.require(A).version()).isEqualTo(1);
        assertThat(pull).succeedsWithin(Duration.ofSeconds(5))
                .satisfies(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(A, B));
        assertThat(policy.updatesApplied()).isEqualTo(2);
        assertThat(policy.pushesAccepted()).isEqualTo(2);
    }

    @Test
    void pullAtCurrentVersionAnswersAtOnce() {
        StepVerifier.create(policy.awaitReady(0, new long[] {B, A}, 0))
                .assertNext(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(B, A))
                .verifyComplete();
    }

    @Test
    void pushForAnotherStepIsWrongStep() {
        completeStepZero();
        assertCode(() -> policy.accept(push(0, 0, A, new float[] {1, 1})), ErrorCode.WRONG_STEP, "already applied");
        assertCode(() -> policy.accept(push(0, 2, A, new float[] {1, 1})), ErrorCode.WRONG_STEP, "p0/s0 is at step 1");
        assertThat(values(A)).containsExactly(-2f, -4f);
    }

    @Test
    void secondPushOfTheSameWorkerIsDuplicateAndRejectsTheWholePush() {
        policy.accept(push(0, 0, A, new float[] {2, 4}));
        assertCode(() -> policy.accept(push(0, 0, B, new float[] {1, 1}, A, new float[] {2, 4})),
                ErrorCode.DUPLICATE_PUSH, "worker 0 already pushed slice p0/s0");
        // B was not taken from the rejected push: worker 0 may still push it, and B applies only with worker 1's
        policy.accept(push(0, 0, B, new float[] {1, 1}));
        policy.accept(push(1, 0, B, new float[] {3, 3}));
        assertThat(values(B)).containsExactly(8f, 18f);
        assertThat(store.require(A).version()).isZero();
    }

    @Test
    void senderOutsideTheJobIsRejected() {
        assertCode(() -> policy.accept(push(2, 0, A, new float[] {1, 1})), ErrorCode.INVALID_ARGUMENT,
                "sender rank 2");
    }

    @Test
    void pullDeadlineNamesTheSliceAndTheMissingWorker() {
        policy.accept(push(0, 0, A, new float[] {2, 4}));
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, new long[] {A, SliceKey.of(7, 0)}, 1))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(119))
                .expectNoEvent(Duration.ofMillis(500))
                .thenAwait(Duration.ofSeconds(1))
                .expectErrorSatisfies(e -> {
                    assertThat(e).isInstanceOf(PsException.class);
                    assertThat(((PsException) e).code()).isEqualTo(ErrorCode.TIMEOUT);
                    assertThat(e.getMessage()).contains("p0/s0 at version 0, step 0 waits for worker ranks [1]");
                })
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void pullDeadlineNamesUninitialisedSlices() {
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, new long[] {SliceKey.of(7, 3)}, 0))
                .expectSubscription()
                .thenAwait(Duration.ofSeconds(121))
                .expectErrorSatisfies(e -> assertThat(e).hasMessageStartingWith("[TIMEOUT] ")
                        .hasMessageContaining("p7/s3 not initialised"))
                .verify(Duration.ofSeconds(5));
    }

    @Test
    void pullWaitsForInitialisation() {
        long late = SliceKey.of(3, 0);
        CompletableFuture<List<DenseSlice>> pull = policy.awaitReady(0, new long[] {late}, 0).toFuture();
        assertThat(pull).isNotDone();
        store.initialize(Map.of(late, Nd4j.createFromArray(5f)));
        assertThat(pull).succeedsWithin(Duration.ofSeconds(5));
    }

    private static void assertCode(Runnable call, ErrorCode code, String detail) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(PsException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).startsWith("[" + code + "] ").contains(detail);
        });
    }
}
