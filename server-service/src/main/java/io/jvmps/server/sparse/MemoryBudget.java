package io.jvmps.server.sparse;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.concurrent.atomic.AtomicLong;

/** The bytes all sparse tables of this server may hold ({@code ps.sparse.max-bytes}). Thread-safe. */
public final class MemoryBudget {
    private final long maxBytes;
    private final AtomicLong used = new AtomicLong();

    /** @param maxBytes cap, &gt; 0 */
    public MemoryBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("sparse memory cap must be > 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * Takes {@code bytes} from the budget.
     *
     * @throws PsException RESOURCE_EXHAUSTED (nothing taken) if that would pass the cap
     */
    void reserve(long bytes, String what) {
        long now = used.get();
        while (true) {
            if (now + bytes > maxBytes) {
                throw new PsException(ErrorCode.RESOURCE_EXHAUSTED, what + " needs " + bytes
                        + " more bytes; sparse tables on this server hold " + now + " of ps.sparse.max-bytes="
                        + maxBytes);
            }
            if (used.compareAndSet(now, now + bytes)) {
                return;
            }
            now = used.get();
        }
    }

    /** Gives back {@code bytes} taken earlier (a table rolled back or cleared). */
    void release(long bytes) {
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
