package io.jvmps.server.consistency;

import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Pulls waiting, without a thread, for the slowest live worker's clock to reach a value. The owner calls
 * {@link #wake()} after every clock advance and every change of the live set, once it holds no slice
 * lock, so a woken pull never runs while a push still holds locks. It also takes joins, which make a rank
 * live again at its clock. Thread-safe.
 */
final class StalenessGate {
    private final WorkerClocks clocks;
    private final LiveWorkers live;
    private final List<Waiter> waiters = new ArrayList<>();

    private record Waiter(long minClock, CompletableFuture<Void> done) {
    }

    /**
     * @param clocks every rank's clock
     * @param live   the ranks whose clocks count (dead and finished workers hold nobody back)
     */
    StalenessGate(WorkerClocks clocks, LiveWorkers live) {
        this.clocks = clocks;
        this.live = live;
    }

    /** @return true when the slowest live clock is at least {@code minClock} */
    boolean open(long minClock) {
        return slowestClock() >= minClock;
    }

    /** @return the slowest live worker's clock ({@link Long#MAX_VALUE} when no worker is live) */
    long slowestClock() {
        return clocks.min(live.live());
    }

    /**
     * @param minClock the slowest clock to wait for
     * @return completes once every worker's clock is at least {@code minClock}; cancelling forgets it
     */
    Mono<Void> await(long minClock) {
        return Mono.defer(() -> {
            Waiter waiter;
            synchronized (this) {
                if (open(minClock)) {
                    return Mono.empty();
                }
                waiter = new Waiter(minClock, new CompletableFuture<>());
                waiters.add(waiter);
            }
            return Mono.fromFuture(waiter.done(), true).doOnCancel(() -> forget(waiter));
        });
    }

    /**
     * A worker taking over {@code request.rank()}: accepted at the rank's clock or later (see
     * {@link WorkerClocks#join}), and then the rank is live again from that step (GEO: round) on. A
     * scale-out rank's first worker joins at the slowest live clock.
     */
    JoinAnswer join(JoinRequest request, int serverRank) {
        if (live.fresh(request.rank())) {
            // a scale-out worker starts level with the slowest live one, not at 0 (which would hold every
            // other worker back at the staleness bound until it caught up)
            long slowest = slowestClock();
            if (slowest != Long.MAX_VALUE) {
                clocks.raiseTo(request.rank(), slowest);
            }
        }
        JoinAnswer answer = clocks.join(request, serverRank);
        if (answer.accepted()) {
            live.join(request.rank(), request.nodeId(), request.step());
        }
        return answer;
    }

    /** Completes the waiters whose clock was reached, outside this gate's monitor. */
    void wake() {
        List<CompletableFuture<Void>> ready = new ArrayList<>(0);
        synchronized (this) {
            long min = slowestClock();
            for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
                Waiter w = it.next();
                if (min >= w.minClock()) {
                    ready.add(w.done());
                    it.remove();
                }
            }
        }
        ready.forEach(f -> f.complete(null));
    }

    /** @return number of pulls waiting */
    synchronized int waiting() {
        return waiters.size();
    }

    private synchronized void forget(Waiter waiter) {
        waiters.remove(waiter);
    }
}
