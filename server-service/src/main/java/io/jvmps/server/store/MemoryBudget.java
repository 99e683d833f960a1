package io.jvmps.server.store;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A cap on the bytes some holders of this server may take, set by configuration: reservations are taken
 * before the memory is allocated and given back when it is freed, and one that would pass the cap fails
 * with {@code RESOURCE_EXHAUSTED} naming the property. Used for the sparse tables
 * ({@code ps.sparse.max-bytes}) and for inbound streams ({@code ps.server.max-inflight-bytes}).
 * Thread-safe.
 */
public final class MemoryBudget {
    private final long maxBytes;
    private final String holders;
    private final String property;
    private final AtomicLong used = new AtomicLong();

    /** The sparse tables' budget ({@code ps.sparse.max-bytes}). */
    public MemoryBudget(long maxBytes) {
        this(maxBytes, "sparse tables on this server", "ps.sparse.max-bytes");
    }

    /**
     * @param maxBytes cap, &gt; 0
     * @param holders  who takes from it, for messages (e.g. "inbound streams")
     * @param property the property that sets the cap, for messages
     */
    public MemoryBudget(long maxBytes, String holders, String property) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException(property + " must be > 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.holders = holders;
        this.property = property;
    }

    /**
     * Takes {@code bytes} from the budget.
     *
     * @throws PsException RESOURCE_EXHAUSTED (nothing taken) if that would pass the cap
     */
    public void reserve(long bytes, String what) {
        long now = used.get();
        while (true) {
            if (now + bytes > maxBytes) {
                throw new PsException(ErrorCode.RESOURCE_EXHAUSTED, what + " needs " + bytes + " more bytes; "
                        + holders + " hold " + now + " of " + property + "=" + maxBytes);
            }
            if (used.compareAndSet(now, now + bytes)) {
                return;
            }
            now = used.get();
        }
    }

    /** Gives back {@code bytes} taken earlier. */
    public void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** @return bytes taken */
    public long used() {
        return used.get();
    }

    /** @return the cap */
    public long max() {
        return maxBytes;
    }
}
