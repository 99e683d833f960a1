package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.Map;

import static io.jvmps.server.consistency.PolicyFixture.assertCode;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job of 2 workers that may scale out to 3 ({@code ps.cluster.max-worker-num=3}): rank 2 is not live until
 * a worker joins at it, and in SSP its first worker joins level with the slowest live worker instead of at
 * step 0, so nobody waits for it to catch up.
 */
class ScaleOutRankTest {
    private static final long A = SliceKey.of(0, 0);

    private final DenseStore store = new DenseStore();
    private final LiveWorkers live = new LiveWorkers(3, 2);

    ScaleOutRankTest() {
        store.initialize(Map.of(A, Nd4j.createFromArray(0f)));
    }

    private ConsistencyPolicy policy(ConsistencyMode mode) {
        return PolicyFactory.create(mode, new PolicyContext(store, PolicyFixture.sgd(1), 3, Duration.ofSeconds(120),
                1, SliceUpdateListener.NONE, live));
    }

    @Test
    void anSspScaleOutWorkerJoinsAtTheSlowestLiveClockAndCountsFromThen() {
        ConsistencyPolicy ssp = policy(ConsistencyMode.SSP);
        assertThat(live.live().cardinality()).as("rank 2 waits for a worker").isEqualTo(2);
        for (int step = 0; step < 6; step++) {
            ssp.accept(PolicyFixture.push(store, 0, step, A, new float[] {1f}));
            if (step < 5) {
                ssp.accept(PolicyFixture.push(store, 1, step, A, new float[] {1f}));
            }
        }
        assertCode(() -> ssp.accept(PolicyFixture.push(store, 2, 0, A, new float[] {1f})), ErrorCode.INVALID_ARGUMENT,
                "worker 2 was dropped");

        JoinAnswer first = ssp.join(new JoinRequest(2, "worker-2-new", 0), 0);
        assertThat(first.accepted()).isFalse();
        assertThat(first.maxVersion()).as("the slowest live clock (worker 1 pushed steps 0-4)").isEqualTo(5);
        assertThat(ssp.join(new JoinRequest(2, "worker-2-new", 5), 0).accepted()).isTrue();
        assertThat(live.isLive(2)).isTrue();

        ssp.accept(PolicyFixture.push(store, 2, 5, A, new float[] {1f}));
        assertThat(ssp.workerClocks()).containsExactly(6L, 5L, 6L);
        assertCode(() -> ssp.accept(PolicyFixture.push(store, 2, 7, A, new float[] {1f})), ErrorCode.WRONG_STEP,
                "staleness bound 1");
    }

    @Test
    void asyncTakesAScaleOutRankUpToTheCapAndNoFurther() {
        ConsistencyPolicy async = policy(ConsistencyMode.ASYNC);
        async.accept(PolicyFixture.push(store, 2, 0, A, new float[] {1f}));
        assertThat(store.require(A).version()).isEqualTo(1);
        assertCode(() -> async.accept(PolicyFixture.push(store, 3, 0, A, new float[] {1f})),
                ErrorCode.INVALID_ARGUMENT, "outside the job's workers [0, 3)");
    }
}
