package io.jvmps.common.embedding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class SlotOrderTest {

    @Test
    void lruEvictsTheLeastRecentlyUsedUnpinnedSlot() {
        SlotOrder order = SlotOrder.of(EvictionPolicy.LRU, 4);
        for (int s = 0; s < 4; s++) {
            order.touch(s);
        }
        order.touch(0);                                   // order now, oldest first: 1, 2, 3, 0
        assertThat(order.victim(slot -> slot == 1)).isEqualTo(2);
        assertThat(order.victim(slot -> false)).isEqualTo(1);
    }

    @Test
    void lfuEvictsTheLeastFrequentlyUsedUnpinnedSlot() {
        SlotOrder order = SlotOrder.of(EvictionPolicy.LFU, 3);
        for (int s = 0; s < 3; s++) {
            order.touch(s);
        }
        order.touch(0);
        order.touch(0);
        order.touch(2);                                   // uses: 0 -> 3, 1 -> 1, 2 -> 2
        assertThat(order.victim(slot -> slot == 1)).isEqualTo(2);
        assertThat(order.victim(slot -> false)).isEqualTo(1);
    }

    /**
     * One batch that misses k rows asks for k victims while the slots it already took stay pinned; each
     * search must not walk over the victims found before it (that made a batch cost O(k^2): 90k steps
     * per batch of 430 misses, the worker's hottest method in a profile of the CTR job).
     */
    @ParameterizedTest
    @EnumSource(EvictionPolicy.class)
    void victimsOfOneBatchAreFoundWithoutRescanningEarlierVictims(EvictionPolicy policy) {
        int capacity = 20_000;
        int misses = 5_000;
        SlotOrder order = SlotOrder.of(policy, capacity);
        for (int s = 0; s < capacity; s++) {
            order.touch(s);
        }
        Set<Integer> pinned = new HashSet<>();
        AtomicLong tested = new AtomicLong();
        for (int k = 0; k < misses; k++) {
            int victim = order.victim(slot -> {
                tested.incrementAndGet();
                return pinned.contains(slot);
            });
            assertThat(victim).as("victim %d", k).isNotNegative().isNotIn(pinned);
            pinned.add(victim);                           // refilled for this batch: pinned until it ends
        }
        assertThat(tested.get()).as("slots examined for %d victims", misses).isLessThan(4L * misses);
        assertThat(pinned).hasSize(misses);
    }
}
