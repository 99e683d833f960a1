package io.jvmps.server.api;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes that inbound init and push streams may hold at once ({@code ps.server.max-inflight-bytes}):
 * a stream reserves a tensor's bytes when its first frame announces it, before the memory is allocated,
 * and gives them back when the stream ends, fails, stalls or is cancelled. So clients that announce
 * large tensors and send nothing more cannot take the server's memory beyond this. Thread-safe.
 */
public final class InflightBudget {
    private final long maxBytes;
    private final AtomicLong used = new AtomicLong();

    /** @param maxBytes cap, &gt; 0 */
    public InflightBudget(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("ps.server.max-inflight-bytes must be > 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * @throws PsException RESOURCE_EXHAUSTED (nothing taken) when the reservation would pass the cap
     */
    void reserve(long bytes, String what) {
        long now = used.get();
        while (true) {
            if (now + bytes > maxBytes) {
                throw new PsException(ErrorCode.RESOURCE_EXHAUSTED, what + " needs " + bytes + " bytes but inbound "
                        + "streams already hold " + now + " of ps.server.max-inflight-bytes=" + maxBytes
                        + "; try again when they are done");
            }
            if (used.compareAndSet(now, now + bytes)) {
                return;
            }
            now = used.get();
        }
    }

    /** Gives back a reservation. */
    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    /** @return bytes reserved now */
    public long used() {
        return used.get();
    }
}
