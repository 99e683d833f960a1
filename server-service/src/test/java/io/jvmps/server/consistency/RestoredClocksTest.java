package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.factory.Nd4j;

import java.util.Map;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static io.jvmps.server.consistency.PolicyFixture.push;
import static io.jvmps.server.consistency.PolicyFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The modes that keep worker clocks after a restore from a checkpoint: each worker resumes at its own
 * clock, and a resent push the restored slices already hold is acknowledged without being applied twice. No
 * push is taken from a worker until it has joined again.
 */
class RestoredClocksTest {

    @ParameterizedTest
    @EnumSource(value = ConsistencyMode.class, names = {"ASYNC", "SSP", "GEO"})
    void workersResumeAtTheirOwnClockAndAHeldPushIsNotAppliedTwice(ConsistencyMode mode) {
        long key = SliceKey.of(0, 0);
        DenseStore store = new DenseStore();
        store.initialize(Map.of(key, Nd4j.createFromArray(0f)));
        ConsistencyPolicy policy = PolicyFactory.create(mode, PolicyFixture.context(store, PolicyFixture.sgd(1), 2, 2));
        DenseSlice slice = store.require(key);

        // this server's part held worker 0's steps 0..4 and worker 1's 0..2; another part lacked worker 0's 4
        policy.restoreClocks(8, new long[] {4, 3}, new long[] {5, 3});

        assertThat(policy.workerClocks()).containsExactly(4L, 3L);
        assertCode(() -> policy.accept(push(store, 1, 3, key, new float[] {1f})), ErrorCode.ROLLED_BACK,
                "since worker 1 last joined");
        assertThat(slice.version()).as("a push before the worker joined again changes nothing").isZero();
        assertThat(policy.workerClocks()).containsExactly(4L, 3L);
        assertThat(policy.join(new JoinRequest(0, "w0", 0), 0).maxVersion()).as("worker 0 resumes at 4").isEqualTo(4);
        assertThat(policy.join(new JoinRequest(1, "w1", 0), 0).maxVersion()).as("worker 1 resumes at 3").isEqualTo(3);
        assertThat(policy.join(new JoinRequest(0, "w0", 4), 0).accepted()).isTrue();
        assertThat(policy.join(new JoinRequest(1, "w1", 3), 0).accepted()).isTrue();
        assertCode(() -> policy.accept(push(store, 0, 2, key, new float[] {1f})), ErrorCode.WRONG_STEP, "after");

        policy.accept(push(store, 0, 4, key, new float[] {1f}));
        assertThat(values(store, key)).as("step 4 of worker 0 is already in these slices").containsExactly(0f);
        assertThat(slice.version()).isZero();
        assertThat(policy.workerClocks()).containsExactly(5L, 3L);

        policy.accept(push(store, 0, 5, key, new float[] {1f}));
        policy.accept(push(store, 1, 3, key, new float[] {1f}));
        assertThat(slice.version()).as("both new pushes applied").isEqualTo(2);
        assertThat(values(store, key)[0]).isNotEqualTo(0f);
    }

    @ParameterizedTest
    @EnumSource(value = ConsistencyMode.class, names = {"ASYNC", "SSP"})
    void withoutClocksInTheCheckpointEveryWorkerResumesAtItsStep(ConsistencyMode mode) {
        long key = SliceKey.of(0, 0);
        DenseStore store = new DenseStore();
        store.initialize(Map.of(key, Nd4j.createFromArray(0f)));
        ConsistencyPolicy policy = PolicyFactory.create(mode, PolicyFixture.context(store, PolicyFixture.sgd(1), 2, 2));

        policy.restoreClocks(8, new long[0], new long[0]);

        assertThat(policy.workerClocks()).containsExactly(8L, 8L);
        assertThat(policy.join(new JoinRequest(1, "w1", 8), 0).accepted()).isTrue();
        policy.accept(push(store, 1, 8, key, new float[] {1f}));
        assertThat(store.require(key).version()).as("nothing is held back as already applied").isEqualTo(1);
    }
}
