package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Each worker's clock on this server: the last step (GEO: round) it pushed here, plus one; 0 before
 * its first push. Steps of one worker must increase. After a restore from a checkpoint it also knows,
 * per worker, the steps whose pushes the restored slices already hold ({@link #alreadyApplied}): the
 * workers resume at the earliest step any server lacks, and a server that holds a resent step
 * acknowledges it without applying it twice. After a restore every worker must join again before its next push
 * here is taken ({@code ROLLED_BACK} until then): a worker that has not recovered from a rollback would otherwise
 * go on from its own step, past the pushes the rollback undid, and nobody would train them again (in ASYNC no
 * pull waits, so no waiting pull's failure would tell it). Thread-safe (one monitor).
 */
final class WorkerClocks {
    /** Bound passed to {@link #advance} when a push may be any number of steps ahead. */
    static final int UNBOUNDED = -1;

    private final long[] clocks;
    private final long[] applied;
    private final BitSet mustJoin;
    private final String unit;

    /**
     * @param workers number of workers
     * @param unit    what a push's step counts, for messages ("step" or "round")
     */
    WorkerClocks(int workers, String unit) {
        this.clocks = new long[workers];
        this.applied = new long[workers];
        this.mustJoin = new BitSet(workers);
        this.unit = unit;
    }

    /**
     * Moves {@code worker}'s clock to {@code step + 1}, or changes nothing and throws.
     *
     * @param bound staleness bound s: the step may be at most s ahead of the slowest clock;
     *              {@link #UNBOUNDED} for no limit
     * @throws PsException {@code ROLLED_BACK} when this server restored a checkpoint since the worker last joined,
     *                     {@code DUPLICATE_PUSH} when the worker already pushed this step,
     *                     {@code WRONG_STEP} when the step is negative, older than its last, or beyond the bound
     */
    synchronized void advance(int worker, long step, int bound) {
        advance(worker, step, bound, null);
    }

    /**
     * {@link #advance(int, long, int)} where the bound is measured from the slowest of {@code counted}
     * only (SSP leaves dead workers out); null counts every worker.
     */
    synchronized void advance(int worker, long step, int bound, BitSet counted) {
        if (mustJoin.get(worker)) {
            throw new PsException(ErrorCode.ROLLED_BACK, "this server restored a checkpoint (its clock for worker "
                    + worker + " is " + unit + " " + clocks[worker] + ") since worker " + worker + " last joined; "
                    + "recover and join again (" + unit + " " + step + " not applied)");
        }
        long last = clocks[worker] - 1;
        if (step < 0) {
            throw new PsException(ErrorCode.WRONG_STEP, "worker " + worker + " pushed " + unit + " " + step
                    + "; " + unit + "s start at 0");
        }
        if (step == last) {
            throw new PsException(ErrorCode.DUPLICATE_PUSH, "worker " + worker + " already pushed " + unit + " "
                    + step + " to this server");
        }
        if (step < last) {
            throw new PsException(ErrorCode.WRONG_STEP, "worker " + worker + " pushed " + unit + " " + step
                    + " after " + unit + " " + last + "; a worker's " + unit + "s must increase");
        }
        if (bound != UNBOUNDED && step - min(counted) > bound) {
            int slowest = slowest(counted);
            throw new PsException(ErrorCode.WRONG_STEP, "worker " + worker + " pushed " + unit + " " + step
                    + " but worker " + slowest + " is at clock " + clocks[slowest] + " (staleness bound " + bound
                    + "); pull for " + unit + " " + step + " first");
        }
        clocks[worker] = step + 1;
    }

    /** Moves {@code worker}'s clock up to {@code clock} if it is below (a scale-out rank starting mid-job). */
    synchronized void raiseTo(int worker, long clock) {
        clocks[worker] = Math.max(clocks[worker], clock);
    }

    /** @return {@code worker}'s clock: the step it pushes next here, or more */
    synchronized long clock(int worker) {
        return clocks[worker];
    }

    /**
     * Puts the clocks of a restored checkpoint back (see {@code ConsistencyPolicy#restoreClocks}); every worker
     * must join again before its next push.
     *
     * @param step    the checkpoint's step: every clock is set to it when {@code resume} does not fit
     *                (a checkpoint without clocks, or of another worker count)
     * @param resume  per worker, the step it resumes at
     * @param applied per worker, the first step whose push the restored slices do not hold (at least
     *                {@code resume})
     */
    synchronized void restore(long step, long[] resume, long[] applied) {
        mustJoin.set(0, clocks.length);
        if (resume.length != clocks.length || applied.length != clocks.length) {
            Arrays.fill(clocks, step);
            Arrays.fill(this.applied, 0);
            return;
        }
        for (int w = 0; w < clocks.length; w++) {
            clocks[w] = resume[w];
            this.applied[w] = Math.max(resume[w], applied[w]);
        }
    }

    /**
     * @return true when the restored slices already hold {@code worker}'s push of {@code step}: it is
     *         acknowledged (its clock advances) but not applied again
     */
    synchronized boolean alreadyApplied(int worker, long step) {
        return step < applied[worker];
    }

    /**
     * The answer to a worker that joins as {@code request.rank()} (at its start, after a recovery, or taking over
     * the rank): accepted when it asks for its rank's clock or later, which is where that rank's schedule stopped
     * on this server; an accepted join lets the rank push again after a restore.
     */
    synchronized JoinAnswer join(JoinRequest request,
                                                          int serverRank) {
        if (request.step() < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "join " + unit + " must be >= 0, got " + request.step());
        }
        long clock = clocks[request.rank()];
        boolean accepted = request.step() >= clock;
        if (accepted) {
            mustJoin.clear(request.rank());
        }
        return new JoinAnswer(serverRank, accepted, clock);
    }

    /**
     * @param counted the ranks to look at; null for all
     * @return the slowest clock among {@code counted}; {@link Long#MAX_VALUE} when it is empty
     */
    synchronized long min(BitSet counted) {
        long min = Long.MAX_VALUE;
        for (int w = 0; w < clocks.length; w++) {
            if (counted == null || counted.get(w)) {
                min = Math.min(min, clocks[w]);
            }
        }
        return min;
    }

    /**
     * @param counted the ranks to look at; null for all
     * @return e.g. {@code worker 1 at clock 5, worker 3 at clock 4}: every worker of {@code counted} below
     *         {@code clock}
     */
    synchronized String below(long clock, BitSet counted) {
        List<String> laggards = new ArrayList<>();
        for (int w = 0; w < clocks.length; w++) {
            if ((counted == null || counted.get(w)) && clocks[w] < clock) {
                laggards.add("worker " + w + " at clock " + clocks[w]);
            }
        }
        return String.join(", ", laggards);
    }

    /** @return the clocks by worker rank */
    synchronized List<Long> snapshot() {
        List<Long> out = new ArrayList<>(clocks.length);
        for (long c : clocks) {
            out.add(c);
        }
        return List.copyOf(out);
    }

    private int slowest(BitSet counted) {
        int slowest = -1;
        for (int w = 0; w < clocks.length; w++) {
            if ((counted == null || counted.get(w)) && (slowest < 0 || clocks[w] < clocks[slowest])) {
                slowest = w;
            }
        }
        return slowest;
    }
}
