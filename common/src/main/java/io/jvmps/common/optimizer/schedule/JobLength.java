package io.jvmps.common.optimizer.schedule;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The job's length in updates of one parameter slice, as the job itself tells the servers when it declares its
 * dense model ({@code DenseDeclaration.updates}): in SYNC one update per step, in ASYNC and SSP one per worker
 * push. A cosine schedule without an explicit {@code total-steps} is sized from it. The first length told wins
 * (later declarations of the same job say the same, or are a scale-out worker's estimate); 0 until then.
 * Thread-safe.
 */
public final class JobLength {
    private final AtomicLong updates = new AtomicLong();

    /**
     * Records the job's length unless one is known already.
     *
     * @param jobUpdates the job's updates per slice, &gt;= 1 (0 or less is ignored: the job did not say)
     * @return whether this call set it
     */
    public boolean tell(long jobUpdates) {
        return jobUpdates > 0 && updates.compareAndSet(0, jobUpdates);
    }

    /** @return the job's length in updates, 0 while no job told it */
    public long updates() {
        return updates.get();
    }
}
