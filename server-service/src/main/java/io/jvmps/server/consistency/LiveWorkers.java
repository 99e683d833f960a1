package io.jvmps.server.consistency;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The worker ranks a synchronous step still waits for: every rank of the job except those the
 * scheduler marked DEAD or FINISHED. Starts with all ranks live (workers that have not registered yet
 * are expected). Thread-safe; listeners run on the updating thread after a change.
 */
public final class LiveWorkers {
    private final int workers;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private volatile BitSet live;

    /** @param workers number of worker ranks of the job */
    public LiveWorkers(int workers) {
        this.workers = workers;
        BitSet all = new BitSet();
        all.set(0, workers);
        this.live = all;
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

    /** @param listener told after every change */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * @param gone ranks no longer taking part (dead or finished)
     * @return true when the live set changed
     */
    public boolean update(BitSet gone) {
        BitSet next = new BitSet();
        next.set(0, workers);
        next.andNot(gone);
        synchronized (this) {
            if (next.equals(live)) {
                return false;
            }
            live = next;
        }
        listeners.forEach(Runnable::run);
        return true;
    }
}
