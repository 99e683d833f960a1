package io.jvmps.common.embedding;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Least recently used first: a doubly linked list over slot numbers (two int arrays, no per-entry
 * objects), most recent at the head. Touch is O(1); a victim is found from the tail, skipping pinned
 * slots, which were touched by the current batch and so sit near the head. A victim leaves the list
 * until its slot is touched again, so evicting k rows for one batch walks O(k) links, not O(k^2).
 */
final class LruOrder implements SlotOrder {
    private final int[] prev;
    private final int[] next;
    private final boolean[] linked;
    private int head = -1;
    private int tail = -1;

    LruOrder(int capacity) {
        prev = new int[capacity];
        next = new int[capacity];
        linked = new boolean[capacity];
        Arrays.fill(prev, -1);
        Arrays.fill(next, -1);
    }

    @Override
    public void touch(int slot) {
        if (linked[slot]) {
            if (slot == head) {
                return;
            }
            unlink(slot);
        }
        prev[slot] = -1;
        next[slot] = head;
        if (head >= 0) {
            prev[head] = slot;
        }
        head = slot;
        if (tail < 0) {
            tail = slot;
        }
        linked[slot] = true;
    }

    @Override
    public int victim(IntPredicate pinned) {
        for (int s = tail; s >= 0; s = prev[s]) {
            if (!pinned.test(s)) {
                unlink(s); // refilled and touched next: a later search must not walk over it again
                return s;
            }
        }
        return -1;
    }

    private void unlink(int slot) {
        int p = prev[slot];
        int n = next[slot];
        if (p >= 0) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            tail = p;
        }
        linked[slot] = false;
    }
}
