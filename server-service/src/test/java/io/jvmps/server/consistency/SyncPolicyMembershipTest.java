package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static io.jvmps.server.consistency.PolicyFixture.push;
import static io.jvmps.server.consistency.PolicyFixture.sgd;
import static io.jvmps.server.consistency.PolicyFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

class SyncPolicyMembershipTest {
    private static final long A = 1L;
    private static final long B = 2L;

    @Test
    void droppingAWorkerAppliesTheStepsThatOnlyWaitedForItAndRefusesItsLaterPushes() throws Exception {
        DenseStore store = new DenseStore();
        store.initialize(Map.of(A, Nd4j.createFromArray(1f, 1f), B, Nd4j.createFromArray(5f)));
        LiveWorkers live = new LiveWorkers(3);
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store, sgd(1.0), 3, Duration.ofSeconds(30), 0,
                SliceUpdateListener.NONE, live));

        policy.accept(push(store, 0, 0, A, new float[] {1f, 2f}, B, new float[] {1f}));
        policy.accept(push(store, 1, 0, A, new float[] {3f, 4f})); // worker 1 dies before pushing B
        CompletableFuture<java.util.List<io.jvmps.server.store.DenseSlice>> pull =
                policy.awaitReady(0, new long[] {A, B}, 1).toFuture();
        assertThat(pull).isNotDone();
        assertThat(store.require(A).version()).isZero();

        live.drop(Map.of(2, "worker-2-a")); // worker 2 never pushed: A applies with workers 0 and 1, B with worker 0 alone
        assertThat(values(store, A)).containsExactly(-1f, -2f);
        assertThat(store.require(B).version()).isZero();
        live.drop(Map.of(1, "worker-1-a"));
        assertThat(values(store, B)).containsExactly(4f);
        assertThat(pull.get(5, java.util.concurrent.TimeUnit.SECONDS)).hasSize(2);

        assertCode(() -> policy.accept(push(store, 1, 1, A, new float[] {1f, 1f})), ErrorCode.INVALID_ARGUMENT,
                "worker 1 was dropped");
        policy.accept(push(store, 0, 1, A, new float[] {1f, 1f}, B, new float[] {1f}));
        assertThat(values(store, A)).containsExactly(-2f, -3f);
        assertThat(store.require(B).version()).isEqualTo(2);
    }
}
