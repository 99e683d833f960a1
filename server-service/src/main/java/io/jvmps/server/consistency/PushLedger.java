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
