package io.jvmps.server.consistency;

import io.jvmps.common.protocol.PushAck;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * At-most-once pushes: remembers each worker's last push tag (its incarnation and sequence number)
 * and the acknowledgement it got. A push that arrives again with that tag (the worker retried because
 * the acknowledgement was lost) is answered with the original acknowledgement and not applied again.
 * Tag 0 means the sender does not tag its pushes. Thread-safe: one sender's pushes are checked and
 * applied one at a time.
 */
public final class PushLedger {
    /** What the ledger remembers of a sender's last push. */
    public record Entry(long tag, long step, PushAck ack) {
    }

    private final ConcurrentHashMap<Integer, Entry> last = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, Object> locks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Integer, Partial> partial = new ConcurrentHashMap<>();

    /** The slices of a sender's push applied so far, while it is applied slice by slice. */
    private record Partial(long tag, long step, java.util.Set<Long> keys) {
    }
    private final LongAdder duplicates = new LongAdder();

    /**
     * @param sender worker rank
     * @param tag    the push's tag (0: untagged, always applied)
     * @param step   the push's step
     * @param apply  applies the push and returns its acknowledgement
     * @return the acknowledgement: the original one for a repeated tag
     */
    public PushAck applyOnce(int sender, long tag, long step, Supplier<PushAck> apply) {
        if (tag == 0) {
            return apply.get();
        }
        synchronized (locks.computeIfAbsent(sender, s -> new Object())) {
            Entry previous = last.get(sender);
            if (previous != null && previous.tag() == tag && previous.step() == step) {
                duplicates.increment();
                return previous.ack();
            }
            PushAck ack = apply.get();
            last.put(sender, new Entry(tag, step, ack));
            return ack;
        }
    }

    /**
     * Per-slice application: applies one slice of a push unless this push (same tag and step) already applied it,
     * as a retry of a push cut short or not acknowledged finds.
     *
     * @param key   the slice's key
     * @param apply applies the slice
     * @return true when {@code apply} ran, false when the slice was applied before (nothing ran)
     */
    public boolean applySliceOnce(int sender, long tag, long step, long key, Runnable apply) {
        if (tag == 0) {
            apply.run();
            return true;
        }
        synchronized (locks.computeIfAbsent(sender, s -> new Object())) {
            Entry previous = last.get(sender);
            if (previous != null && previous.tag() == tag && previous.step() == step) {
                return false; // the whole push was applied and acknowledged before
            }
            Partial p = partial.get(sender);
            if (p == null || p.tag() != tag || p.step() != step) {
                p = new Partial(tag, step, new java.util.HashSet<>());
                partial.put(sender, p);
            }
            if (p.keys().contains(key)) {
                return false;
            }
            apply.run();
            p.keys().add(key);
            return true;
        }
    }

    /**
     * Per-slice application: records a push whose every slice arrived and is applied (now or before).
     *
     * @param applied whether any slice of it was applied by this delivery (false: a repeat, counted as duplicate)
     */
    public void completeSliced(int sender, long tag, long step, PushAck ack, boolean applied) {
        if (tag == 0) {
            return;
        }
        synchronized (locks.computeIfAbsent(sender, s -> new Object())) {
            if (!applied) {
                duplicates.increment();
            }
            last.put(sender, new Entry(tag, step, ack));
            partial.remove(sender);
        }
    }

    /** @return pushes answered from the ledger without being applied again */
    public long duplicates() {
        return duplicates.sum();
    }

    /** Replaces everything remembered with {@code entries} (a restored checkpoint's), by sender. */
    public void restore(Map<Integer, Entry> entries) {
        last.clear();
        last.putAll(entries);
    }

    /** @return a copy of the last entry per sender */
    public Map<Integer, Entry> snapshot() {
        return Map.copyOf(last);
    }
}
