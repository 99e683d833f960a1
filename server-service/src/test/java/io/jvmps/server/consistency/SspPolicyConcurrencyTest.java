package io.jvmps.server.consistency;

import io.jvmps.common.sharding.SliceKey;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two workers on two threads run 200 SSP steps (staleness 1) over three slices, pushing in different
 * slice orders: no deadlock, no push lost or doubled, and no pull ever answered while its worker was
 * more than 1 step ahead of the slowest.
 */
class SspPolicyConcurrencyTest {
    private static final long[] KEYS = {SliceKey.of(0, 0), SliceKey.of(0, 1), SliceKey.of(1, 0)};
    private static final int STEPS = 200;
    private static final int STALENESS = 1;

    @Test
    void twoWorkersStayWithinTheBoundAndEveryPushIsApplied() throws Exception {
        DenseStore store = new DenseStore();
        for (long key : KEYS) {
            store.initialize(Map.of(key, Nd4j.createFromArray(0f, 0f)));
        }
        SspPolicy policy = new SspPolicy(PolicyFixture.context(store, PolicyFixture.sgd(1), 2, STALENESS));
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                int r = rank;
                workers.add(CompletableFuture.runAsync(() -> train(policy, store, r, violations), pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(violations).isEmpty();
        for (long key : KEYS) {
            DenseSlice slice = store.require(key);
            assertThat(slice.version()).isEqualTo(2L * STEPS);
            // worker 0 pushes [1, -1], worker 1 [3, 1] each step: p = -200 * [4, 0]
            assertThat(PolicyFixture.values(store, key)).containsExactly(-4f * STEPS, 0f);
        }
        assertThat(policy.workerClocks()).containsExactly((long) STEPS, (long) STEPS);
        assertThat(policy.waitingPulls()).isZero();
    }

    private static void train(SspPolicy policy, DenseStore store, int rank, List<String> violations) {
        for (int step = 0; step < STEPS; step++) {
            List<DenseSlice> pulled = policy.awaitReady(rank, KEYS, step).block(Duration.ofSeconds(30));
            long slowest = policy.workerClocks().stream().mapToLong(Long::longValue).min().orElseThrow();
            if (slowest < step - STALENESS) {
                violations.add("worker " + rank + " pulled step " + step + " with the slowest at clock " + slowest);
            }
            for (DenseSlice s : pulled) {
                s.snapshot(ByteBufAllocator.DEFAULT).release();
            }
            List<GradientPush.SliceGradient> grads = new ArrayList<>();
            for (int i = 0; i < KEYS.length; i++) {
                long key = KEYS[rank == 0 ? KEYS.length - 1 - i : i];
                grads.add(new GradientPush.SliceGradient(store.require(key),
                        rank == 0 ? Nd4j.createFromArray(1f, -1f) : Nd4j.createFromArray(3f, 1f)));
            }
            policy.accept(new GradientPush(rank, step, grads));
        }
    }
}
