package io.jvmps.server.consistency;

import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.optimizer.OptimizerSettings;
import io.jvmps.server.optimizer.OptimizerType;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;
import reactor.test.StepVerifier;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link AsyncPolicy}: every push applies at once, pulls never wait for versions. */
class AsyncPolicyTest {

    @Test
    void appliesEachPushOnArrival() {
        long key = SliceKey.of(0, 0);
        DenseStore store = new DenseStore();
        store.initialize(Map.of(key, Nd4j.createFromArray(1f, 1f)));
        AsyncPolicy policy = new AsyncPolicy(new PolicyContext(store,
                OptimizerType.SGD.create(new OptimizerSettings(0.5, 0, false, 0.9, 0.999, 1e-8)), 2,
                Duration.ofSeconds(1)));
        DenseSlice slice = store.require(key);

        policy.accept(new GradientPush(1, 7, List.of(new GradientPush.SliceGradient(slice, Nd4j.createFromArray(2f, 4f)))));
        policy.accept(new GradientPush(0, 0, List.of(new GradientPush.SliceGradient(slice, Nd4j.createFromArray(2f, 0f)))));

        assertThat(slice.version()).isEqualTo(2);
        slice.lock();
        try {
            // 1 - 0.5*2 - 0.5*2 = -1 ; 1 - 0.5*4 - 0 = -1
            assertThat(slice.values().toFloatVector()).containsExactly(-1f, -1f);
        } finally {
            slice.unlock();
        }
        StepVerifier.create(policy.awaitReady(new long[] {key}, 99)).expectNextCount(1).verifyComplete();
    }
}
