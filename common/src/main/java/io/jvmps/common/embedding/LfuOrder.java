package io.jvmps.common.embedding;

import java.util.function.IntPredicate;

/**
 * Least frequently used first, ties broken by least recent use: a binary min-heap of slots keyed by
 * (use count, last use tick), with each slot's heap position kept so a touch re-sorts in O(log n).
 * A victim search pops pinned slots aside and puts them back.
 */
final class LfuOrder implements SlotOrder {
    private final int[] heap;
    private final int[] position;
    private final long[] uses;
    private final long[] lastUse;
    private int size;
    private long tick;

    LfuOrder(int capacity) {
        heap = new int[capacity];
        position = new int[capacity];
        uses = new long[capacity];
        lastUse = new long[capacity];
        java.util.Arrays.fill(position, -1);
    }

    @Override
    public void touch(int slot) {
        lastUse[slot] = ++tick;
        if (position[slot] < 0) {
            uses[slot] = 1;
            heap[size] = slot;
            position[slot] = size++;
            up(position[slot]);
        } else {
            uses[slot]++;
            down(position[slot]);
        }
    }

    @Override
    public int victim(IntPredicate pinned) {
        // Walk the heap in key order with a small frontier (a second heap over heap indexes would be the
        // general answer; pinned slots are few per batch, so scanning children level by level is enough).
        int best = -1;
        java.util.ArrayDeque<Integer> frontier = new java.util.ArrayDeque<>();
        if (size > 0) {
            frontier.add(0);
        }
        while (!frontier.isEmpty()) {
            int i = frontier.poll();
            int slot = heap[i];
            if (best >= 0 && !less(slot, best)) {
                continue;      // nothing below i can beat the best unpinned slot found
            }
            if (!pinned.test(slot)) {
                best = slot;
                continue;
            }
            if (2 * i + 1 < size) {
                frontier.add(2 * i + 1);
            }
            if (2 * i + 2 < size) {
                frontier.add(2 * i + 2);
            }
        }
        if (best >= 0) {
            // the slot is about to be refilled: start it over as a new entry
            remove(position[best]);
        }
        return best;
    }

    private void remove(int i) {
        int slot = heap[i];
        int last = heap[--size];
        position[slot] = -1;
        if (i < size) {
            heap[i] = last;
            position[last] = i;
            up(i);
            down(position[last]);
        }
    }

    private boolean less(int a, int b) {
        return uses[a] != uses[b] ? uses[a] < uses[b] : lastUse[a] < lastUse[b];
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!less(heap[i], heap[parent])) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int smallest = i;
            if (l < size && less(heap[l], heap[smallest])) {
                smallest = l;
            }
            if (r < size && less(heap[r], heap[smallest])) {
                smallest = r;
            }
            if (smallest == i) {
                return;
            }
            swap(i, smallest);
            i = smallest;
        }
    }

    private void swap(int a, int b) {
        int sa = heap[a];
        int sb = heap[b];
        heap[a] = sb;
        heap[b] = sa;
        position[sb] = a;
        position[sa] = b;
    }
}
