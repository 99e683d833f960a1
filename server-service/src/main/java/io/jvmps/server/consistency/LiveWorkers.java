package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The worker ranks a SYNC step waits for and whose clocks bound SSP. Every rank of the job starts live
 * and expected from step 0 (workers that have not registered yet are expected), except scale-out ranks
 * beyond {@code ps.cluster.worker-num}, which are live once a worker joins at them. A rank the scheduler marked DEAD or
 * FINISHED is dropped; a worker that takes the rank over comes back only by joining
 * ({@link #join}), from the step it joined at, so steps before it do not wait for it. Thread-safe;
 * listeners run on the updating thread after a change.
 */
public final class LiveWorkers {
    private final int workers;
    private final int initial;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final long[] joinedAt;
    private final String[] holders;
    private volatile BitSet live;

    /** @param workers number of worker ranks of the job, all live from the start */
    public LiveWorkers(int workers) {
        this(workers, workers);
    }

    /**
     * @param ranks   worker ranks that may take part ({@code ps.cluster.max-worker-num}, or worker-num)
     * @param initial ranks live from the start ({@code ps.cluster.worker-num}); the others (scale-out ranks)
     *                become live when a worker joins at them
     */
    public LiveWorkers(int ranks, int initial) {
        if (initial < 1 || initial > ranks) {
            throw new IllegalArgumentException("need 1 <= initial ranks <= ranks, got " + initial + " of " + ranks);
        }
        this.workers = ranks;
        this.initial = initial;
        this.joinedAt = new long[ranks];
        this.holders = new String[ranks];
        BitSet first = new BitSet();
        first.set(0, initial);
        this.live = first;
    }

    /**
     * @return true for a scale-out rank (beyond {@code ps.cluster.worker-num}) that no worker has joined yet:
     *         its first worker joins a job already under way
     */
    public synchronized boolean fresh(int rank) {
        return rank >= initial && holders[rank] == null && !live.get(rank);
    }

    /** @return number of worker ranks of the job (live or not) */
    public int ranks() {
        return workers;
    }

    /** @return a copy of the live ranks */
    public BitSet live() {
        return (BitSet) live.clone();
    }

    /** @return true when the rank is live */
    public boolean isLive(int rank) {
        return live.get(rank);
    }

    /**
     * @throws PsException INVALID_ARGUMENT naming the rank when it was dropped (its pushes are refused until a
     *                     worker joins at it)
     */
    public void requireLive(int rank) {
        if (!isLive(rank)) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "worker " + rank + " was dropped from the job (the "
                    + "scheduler marked it DEAD or FINISHED) and the others went on without it; a worker that takes "
                    + "the rank over joins first");
        }
    }

    /** @return the ranks step {@code step} waits for: live and joined at or before it */
    public synchronized BitSet expectedAt(long step) {
        BitSet expected = live();
        for (int r = expected.nextSetBit(0); r >= 0; r = expected.nextSetBit(r + 1)) {
            if (joinedAt[r] > step) {
                expected.clear(r);
            }
        }
        return expected;
    }

    /** @return the first step the rank takes part in (0 unless it joined later) */
    public synchronized long joinedAt(int rank) {
        return joinedAt[rank];
    }

    /** @return the node id that joined at this rank, or null when none joined with an id */
    public synchronized String holder(int rank) {
        return holders[rank];
    }

    /** @param listener told after every change */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Drops ranks whose node left (DEAD or FINISHED), except a rank that a different node has joined
     * since (a late mark of the node it replaced).
     *
     * @param leaving node id by rank, for the nodes that left
     * @return true when the live set changed
     */
    public boolean drop(Map<Integer, String> leaving) {
        synchronized (this) {
            BitSet next = live();
            leaving.forEach((rank, nodeId) -> {
                if (rank >= 0 && rank < workers && (holders[rank] == null || holders[rank].equals(nodeId))) {
                    next.clear(rank);
                }
            });
            if (next.equals(live)) {
                return false;
            }
            live = next;
        }
        listeners.forEach(Runnable::run);
        return true;
    }

    /**
     * Makes {@code rank} live and expected from {@code step} on. The caller makes sure no step at or
     * after {@code step} has been applied without it.
     *
     * @param nodeId the joining node's id
     */
    public void join(int rank, String nodeId, long step) {
        synchronized (this) {
            joinedAt[rank] = step;
            holders[rank] = nodeId;
            BitSet next = live();
            next.set(rank);
            live = next;
        }
        listeners.forEach(Runnable::run);
    }

    /**
     * After a rollback to {@code step}: a worker that joined after it takes part from it again (every
     * worker resumes its schedule there).
     */
    public synchronized void rewindTo(long step) {
        for (int r = 0; r < workers; r++) {
            joinedAt[r] = Math.min(joinedAt[r], step);
        }
    }
}
