package io.jvmps.common.sparse;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

/**
 * When a sparse table's rows are born and when they die: a table's answer to an endless stream of new ids.
 * Declared with the table ({@link SparseTableSpec#lifecycle()}); {@link #KEEP_ALL}, the default, is a row for
 * every id on the first push that touches it, kept forever. Immutable; JSON on the wire.
 *
 * <ul>
 *   <li><b>Admission</b> ({@code admitAfter} &gt; 1): an id gets a row on its {@code admitAfter}-th push, counted
 *   per server in a count-min sketch of fixed size (no map of every id). Until then its pulls read the table's
 *   initial value and its gradients are dropped (counted). The sketch ages: every counter is halved after as
 *   many counted pushes as ten times its width, so the count is over the recent stream, and an id seen now and
 *   then over a long job is not admitted by its total alone. A count can come out high (two ids sharing every
 *   counter), never low: an id is admitted early rather than late.</li>
 *   <li><b>Eviction</b> ({@code evictAfterSteps} &gt; 0): a row no push touched for that many steps (of the
 *   table's clock: the highest step any push to it carried) is removed. An id that comes back starts again from
 *   its initial value, and is admitted again first when admission is on.</li>
 *   <li><b>Eviction when full</b> ({@code evictWhenFull}): a push whose new rows do not fit the server's
 *   {@code ps.sparse.max-bytes} removes this table's least valuable rows to make room (fewest gradient updates
 *   first, then the longest idle) instead of being refused; it is refused only when the table's own rows cannot
 *   make the room.</li>
 * </ul>
 *
 * @param admitAfter      pushes an id needs before it gets a row, 1..{@value #MAX_ADMIT_AFTER} (1 = at once);
 *                        null (left out of the JSON) = 1
 * @param evictAfterSteps steps without a push after which a row is removed, &gt;= 0 (0 = never); null = 0
 * @param evictWhenFull   make room for new rows under the memory cap by removing the table's least valuable ones;
 *                        null = false
 */
public record RowLifecycle(Integer admitAfter, Long evictAfterSteps, Boolean evictWhenFull) {
    /** Largest {@code admitAfter}: the sketch's counters are bytes. */
    public static final int MAX_ADMIT_AFTER = 255;
    /** Every id gets a row at once, and rows are kept forever. */
    public static final RowLifecycle KEEP_ALL = new RowLifecycle(1, 0, false);

    /** Admission and eviction by idleness, refusing pushes when the cap is reached. */
    public RowLifecycle(int admitAfter, long evictAfterSteps) {
        this(admitAfter, evictAfterSteps, false);
    }

    /** The lifecycle with every setting given. */
    public RowLifecycle(int admitAfter, long evictAfterSteps, boolean evictWhenFull) {
        this(Integer.valueOf(admitAfter), Long.valueOf(evictAfterSteps), Boolean.valueOf(evictWhenFull));
    }

    /** @throws PsException INVALID_ARGUMENT naming the bad field */
    public RowLifecycle {
        admitAfter = admitAfter == null ? 1 : admitAfter;
        evictAfterSteps = evictAfterSteps == null ? 0L : evictAfterSteps;
        evictWhenFull = evictWhenFull != null && evictWhenFull;
        if (admitAfter < 1 || admitAfter > MAX_ADMIT_AFTER) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "lifecycle.admitAfter must be 1.." + MAX_ADMIT_AFTER
                    + " pushes, got " + admitAfter);
        }
        if (evictAfterSteps < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "lifecycle.evictAfterSteps must be >= 0 (0 = never), got "
                    + evictAfterSteps);
        }
    }

    /** @return this lifecycle admitting ids on their {@code pushes}-th push */
    public RowLifecycle withAdmitAfter(int pushes) {
        return new RowLifecycle(Integer.valueOf(pushes), evictAfterSteps, evictWhenFull);
    }

    /** @return this lifecycle removing rows idle for more than {@code steps} steps (0 = never) */
    public RowLifecycle withEvictAfterSteps(long steps) {
        return new RowLifecycle(admitAfter, Long.valueOf(steps), evictWhenFull);
    }

    /** @return this lifecycle making room under the memory cap by removing the least valuable rows, or not */
    public RowLifecycle withEvictWhenFull(boolean evict) {
        return new RowLifecycle(admitAfter, evictAfterSteps, Boolean.valueOf(evict));
    }

    /** @return true when new ids must be seen more than once before they get a row */
    public boolean admits() {
        return admitAfter > 1;
    }

    /** @return true when idle rows are removed */
    public boolean evicts() {
        return evictAfterSteps > 0;
    }

    /** @return true when rows keep the clock of their last push (they are removed when idle, or oldest first) */
    public boolean tracksIdleness() {
        return evicts() || evictWhenFull;
    }
}
