package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.optimizer.Optimizer;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.jvmps.server.consistency.PolicyFixture.push;
import static io.jvmps.server.consistency.PolicyFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link AsyncPolicy}: every push applies at once, pulls never wait for versions. */
class AsyncPolicyTest {

    @Test
    void appliesEachPushOnArrival() {
        long key = SliceKey.of(0, 0);
        DenseStore store = new DenseStore();
        store.initialize(Map.of(key, Nd4j.createFromArray(1f, 1f)));
        AsyncPolicy policy = new AsyncPolicy(PolicyFixture.context(store, PolicyFixture.sgd(0.5), 2, 0));
        DenseSlice slice = store.require(key);

        policy.accept(new GradientPush(1, 7, List.of(new GradientPush.SliceGradient(slice, Nd4j.createFromArray(2f, 4f)))));
        policy.accept(new GradientPush(0, 0, List.of(new GradientPush.SliceGradient(slice, Nd4j.createFromArray(2f, 0f)))));

        assertThat(slice.version()).isEqualTo(2);
        // 1 - 0.5*2 - 0.5*2 = -1 ; 1 - 0.5*4 - 0 = -1
        assertThat(values(store, key)).containsExactly(-1f, -1f);
        assertThat(policy.pushesAccepted()).isEqualTo(2);
        assertThat(policy.updatesApplied()).isEqualTo(2);
    }

    @Test
    void aReplayedOrNegativeStepIsRefusedAndChangesNothing() {
        long key = SliceKey.of(0, 0);
        DenseStore store = oneSlice(key);
        AsyncPolicy policy = new AsyncPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 2, 0));
        DenseSlice slice = store.require(key);
        policy.accept(push(store, 0, 5, key, new float[] {1f}));

        for (long step : new long[] {5, 3, -1}) {
            assertThatThrownBy(() -> policy.accept(push(store, 0, step, key, new float[] {1f})))
                    .as("step " + step).isInstanceOfSatisfying(PsException.class,
                            e -> assertThat(e.code()).isIn(ErrorCode.WRONG_STEP, ErrorCode.DUPLICATE_PUSH));
        }
        assertThat(values(store, key)).containsExactly(0f);
        assertThat(slice.version()).isEqualTo(1);
        assertThat(policy.workerClocks()).containsExactly(6L, 0L);
    }

    @Test
    void aWorkerTakingOverARankJoinsAfterItsPredecessorsLastPush() {
        long key = SliceKey.of(0, 0);
        DenseStore store = oneSlice(key);
        AsyncPolicy policy = new AsyncPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 2, 0));
        for (int step = 0; step < 4; step++) {
            policy.accept(push(store, 1, step, key, new float[] {1f}));
        }
        assertThat(policy.join(new JoinRequest(1, "worker-1-new", 0), 0)).isEqualTo(new JoinAnswer(0, false, 4));
        assertThat(policy.join(new JoinRequest(1, "worker-1-new", 4), 0)).isEqualTo(new JoinAnswer(0, true, 4));
        assertThat(policy.join(new JoinRequest(0, "worker-0", 0), 0)).isEqualTo(new JoinAnswer(0, true, 0));
        assertThatThrownBy(() -> policy.join(new JoinRequest(2, "worker-2", 0), 0))
                .isInstanceOfSatisfying(PsException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void pullAnswersAtOnceWhateverMinVersionSays() {
        long key = SliceKey.of(0, 0);
        DenseStore store = oneSlice(key);
        AsyncPolicy policy = new AsyncPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 2, 0));
        StepVerifier.create(policy.awaitReady(1, new long[] {key}, 99))
                .assertNext(slices -> assertThat(slices).extracting(DenseSlice::key).containsExactly(key))
                .verifyComplete();
    }

    @Test
    void pullStillWaitsForInitialisation() {
        long key = SliceKey.of(4, 0);
        DenseStore store = new DenseStore();
        AsyncPolicy policy = new AsyncPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 1, 0));
        StepVerifier.withVirtualTime(() -> policy.awaitReady(0, new long[] {key}, 5))
                .expectSubscription()
                .expectNoEvent(Duration.ofSeconds(60))
                .then(() -> store.initialize(Map.of(key, Nd4j.createFromArray(3f))))
                .expectNextCount(1)
                .verifyComplete();
    }

    /** With one worker, applying on arrival is exactly what a BSP step of one gradient does (Adam: stateful). */
    @Test
    void oneWorkerGivesExactlyTheSameValuesAsSync() {
        long a = SliceKey.of(0, 0);
        long b = SliceKey.of(0, 1);
        float[][] gradsA = {{0.5f, -1f, 2f}, {0.25f, 0.125f, -3f}, {1e-3f, 7f, 0f}, {-0.75f, 0.5f, 1.5f}};
        float[][] gradsB = {{1f}, {-2f}, {0.5f}, {4f}};
        Optimizer adam = PolicyFixture.adam(0.01);

        DenseStore syncStore = store(a, b);
        DenseStore asyncStore = store(a, b);
        SyncPolicy sync = new SyncPolicy(PolicyFixture.context(syncStore, adam, 1, 0));
        AsyncPolicy async = new AsyncPolicy(PolicyFixture.context(asyncStore, adam, 1, 0));
        for (int step = 0; step < gradsA.length; step++) {
            sync.accept(push(syncStore, 0, step, a, gradsA[step].clone(), b, gradsB[step].clone()));
            async.accept(push(asyncStore, 0, step, a, gradsA[step].clone(), b, gradsB[step].clone()));
        }

        for (long key : new long[] {a, b}) {
            assertThat(asyncStore.require(key).version()).isEqualTo(syncStore.require(key).version()).isEqualTo(4);
            assertThat(values(asyncStore, key)).containsExactly(values(syncStore, key));
        }
        assertThat(values(asyncStore, a)).doesNotContain(1f, 2f, 3f); // the updates did happen
        assertThat(async.updatesApplied()).isEqualTo(sync.updatesApplied()).isEqualTo(8);
    }

    private static DenseStore store(long a, long b) {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(a, Nd4j.createFromArray(1f, 2f, 3f), b, Nd4j.createFromArray(-1f)));
        return store;
    }

    /** @return a store holding one slice {@code key} of value {@code [1]} */
    private static DenseStore oneSlice(long key) {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(key, Nd4j.createFromArray(1f)));
        return store;
    }
}
