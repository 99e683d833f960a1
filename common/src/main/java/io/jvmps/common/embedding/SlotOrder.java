package io.jvmps.common.embedding;

import java.util.function.IntPredicate;

/**
 * The eviction order over a cache's slots ({@code 0..capacity-1}). Not thread-safe: used by the
 * training thread only.
 */
interface SlotOrder {

    /** Records that a slot was just filled or used. */
    void touch(int slot);

    /**
     * @param pinned slots that must not be chosen
     * @return the slot to evict: occupied, not pinned; -1 if every occupied slot is pinned. The slot leaves
     *         the order until it is touched again (when it is refilled).
     */
    int victim(IntPredicate pinned);

    /** @return the order for a policy over {@code capacity} slots */
    static SlotOrder of(EvictionPolicy policy, int capacity) {
        return policy == EvictionPolicy.LRU ? new LruOrder(capacity) : new LfuOrder(capacity);
    }
}
