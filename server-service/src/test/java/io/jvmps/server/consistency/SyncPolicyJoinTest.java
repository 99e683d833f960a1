package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static io.jvmps.server.consistency.PolicyFixture.push;
import static io.jvmps.server.consistency.PolicyFixture.sgd;
import static io.jvmps.server.consistency.PolicyFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

/** A worker that took over a dead rank joins a SYNC job at the step after those already applied. */
class SyncPolicyJoinTest {
    private static final long A = 1L;
    private static final long B = 2L;

    @Test
    void aReplacementJoinsAtANotYetAppliedStepAndIsWaitedForFromThereOnly() throws Exception {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(0f, 0f), B, Nd4j.createFromArray(0f)));
        LiveWorkers live = new LiveWorkers(2);
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, sgd(1.0), 2, Duration.ofSeconds(30), 0,
                SliceUpdateListener.NONE, live));
        assertThat(policy.join(new JoinRequest(1, "worker-1-a", 0), 3))
                .as("a fresh job accepts step 0").isEqualTo(new JoinAnswer(3, true, 0));

        live.drop(Map.of(1, "worker-1-a"));
        policy.accept(push(store, 0, 0, A, new float[] {1f, 1f}, B, new float[] {1f}));
        policy.accept(push(store, 0, 1, A, new float[] {1f, 1f})); // B still at step 1
        assertThat(store.require(A).version()).isEqualTo(2);

        assertThat(policy.join(new JoinRequest(1, "worker-1-b", 1), 3))
                .as("step 1 was applied to A without rank 1").isEqualTo(new JoinAnswer(3, false, 2));
        assertThat(store.require(B).version()).as("a refused join changes nothing").isEqualTo(1);
        assertThat(policy.join(new JoinRequest(1, "worker-1-b", 2), 3)).isEqualTo(new JoinAnswer(3, true, 2));
        assertThat(live.expectedAt(1)).hasToString("{0}");
        assertThat(live.expectedAt(2)).hasToString("{0, 1}");

        policy.accept(push(store, 0, 1, B, new float[] {1f}));
        assertThat(values(store, B)).as("step 1 does not wait for the joiner").containsExactly(-2f);
        assertCode(() -> policy.accept(push(store, 1, 1, A, new float[] {5f, 5f})), ErrorCode.WRONG_STEP,
                "joined at step 2");

        CompletableFuture<java.util.List<io.jvmps.server.store.DenseSlice>> pull =
                policy.awaitReady(0, new long[] {A, B}, 3).toFuture();
        policy.accept(push(store, 0, 2, A, new float[] {1f, 1f}, B, new float[] {1f}));
        assertThat(store.require(A).version()).as("step 2 waits for the joiner").isEqualTo(2);
        assertThat(pull).isNotDone();
        policy.accept(push(store, 1, 2, A, new float[] {3f, 5f}, B, new float[] {3f}));
        assertThat(values(store, A)).as("mean of both").containsExactly(-4f, -5f);
        assertThat(values(store, B)).containsExactly(-4f);
        assertThat(pull.get(5, TimeUnit.SECONDS)).hasSize(2);
    }

    @Test
    void joinsAreChecked() {
        DenseStore store = new DenseStore();
        SyncPolicy sync = new SyncPolicy(new PolicyContext(store, sgd(1.0), 2, Duration.ofSeconds(30), 0,
                SliceUpdateListener.NONE, new LiveWorkers(2)));
        assertCode(() -> sync.join(new JoinRequest(0, "w", 0), 0), ErrorCode.NOT_INITIALIZED, "join after init");
        store.initialize(Map.of(A, Nd4j.createFromArray(0f)));
        assertCode(() -> sync.join(new JoinRequest(2, "w", 0), 0), ErrorCode.INVALID_ARGUMENT, "2");
        assertCode(() -> sync.join(new JoinRequest(0, "w", -1), 0), ErrorCode.INVALID_ARGUMENT, ">= 0");
        GeoPolicy geo = new GeoPolicy(new PolicyContext(store, sgd(1.0), 2, Duration.ofSeconds(30), 0,
                SliceUpdateListener.NONE));
        assertCode(() -> geo.join(new JoinRequest(2, "w", 0), 0), ErrorCode.INVALID_ARGUMENT, "2");
        assertCode(() -> geo.join(new JoinRequest(0, "w", -1), 0), ErrorCode.INVALID_ARGUMENT, "round must be >= 0");
    }

    @Test
    void aRollbackBeforeTheJoinStepMakesTheJoinerTakePartFromTheRestoredStep() {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(0f)));
        LiveWorkers live = new LiveWorkers(2);
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, sgd(1.0), 2, Duration.ofSeconds(30), 0,
                SliceUpdateListener.NONE, live));
        live.join(1, "worker-1-b", 7);
        policy.discardPending(); // what a rollback to the checkpoint at version 0 does after resetting slices
        assertThat(live.joinedAt(1)).isZero();
        assertThat(live.expectedAt(0)).hasToString("{0, 1}");
    }
}
