package io.jvmps.server.consistency;

import io.jvmps.common.sharding.SliceKey;
import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.server.store.DenseSlice;
import io.jvmps.server.store.DenseStore;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two workers on two threads run 200 BSP steps over three slices, pushing in different slice orders
 * and pulling the next version after each push: no deadlock, every step applied exactly once.
 */
class SyncPolicyConcurrencyTest {
    private static final long[] KEYS = {SliceKey.of(0, 0), SliceKey.of(0, 1), SliceKey.of(1, 0)};
    private static final int STEPS = 200;

    @Test
    void twoWorkersRunManyStepsWithoutLosingOrDoublingAny() throws Exception {
        DenseStore store = new DenseStore();
        for (long key : KEYS) {
            store.initialize(Map.of(key, Nd4j.createFromArray(0f, 0f)));
        }
        SyncPolicy policy = new SyncPolicy(new PolicyContext(store,
                OptimizerType.SGD.create(new OptimizerSettings(1.0, 0, false, 0.9, 0.999, 1e-8)), 2,
                Duration.ofSeconds(30)));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                int r = rank;
                workers.add(CompletableFuture.runAsync(() -> train(policy, store, r), pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        for (long key : KEYS) {
            DenseSlice slice = store.require(key);
            assertThat(slice.version()).isEqualTo(STEPS);
            slice.lock();
            try {
                // each step's average gradient is (1 + 3) / 2 = 2 for element 0 and (-1 + 1) / 2 = 0 for element 1
                assertThat(slice.values().toFloatVector()).containsExactly(-2f * STEPS, 0f);
            } finally {
                slice.unlock();
            }
        }
        assertThat(policy.updatesApplied()).isEqualTo(3L * STEPS);
    }

    private static void train(SyncPolicy policy, DenseStore store, int rank) {
        for (int step = 0; step < STEPS; step++) {
            List<GradientPush.SliceGradient> grads = new ArrayList<>();
            for (int i = 0; i < KEYS.length; i++) {
                long key = KEYS[rank == 0 ? KEYS.length - 1 - i : i];
                grads.add(new GradientPush.SliceGradient(store.require(key),
                        rank == 0 ? Nd4j.createFromArray(1f, -1f) : Nd4j.createFromArray(3f, 1f)));
            }
            policy.accept(new GradientPush(rank, step, grads));
            List<DenseSlice> next = policy.awaitReady(rank, KEYS, step + 1).block(Duration.ofSeconds(30));
            for (DenseSlice s : next) {
                s.snapshot(ByteBufAllocator.DEFAULT).release();
            }
        }
    }
}
