package io.jvmps.server.consistency;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.JoinAnswer;
import io.jvmps.common.protocol.JoinRequest;
import io.jvmps.common.protocol.PsException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Each worker's clock on this server: the last step (GEO: round) it pushed here, plus one; 0 before
 * its first push. Steps of one worker must increase. Thread-safe (one monitor).
 */
final class WorkerClocks {
    /** Bound passed to {@link #advance} when a push may be any number of steps ahead. */
    static final int UNBOUNDED = -1;

    private final long[] clocks;
    private final String unit;

    /**
     * @param workers number of workers
     * @param unit    what a push's step counts, for messages ("step" or "round")
     */
    WorkerClocks(int workers, String unit) {
        this.clocks = new long[workers];
        this.unit = unit;
    }

    /**
     * Moves {@code worker}'s clock to {@code step + 1}, or changes nothing and throws.
     *
     * @param bound staleness bound s: the step may be at most s ahead of the slowest clock;
     *              {@link #UNBOUNDED} for no limit
     * @throws PsException {@code DUPLICATE_PUSH} when the worker already pushed this step,
     *                     {@code WRONG_STEP} when the step is negative, older than its last, or beyond the bound
     */
    synchronized void advance(int worker, long step, int bound) {
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
        if (bound != UNBOUNDED && step - min() > bound) {
            int slowest = slowest();
            throw new PsException(ErrorCode.WRONG_STEP, "worker " + worker + " pushed " + unit + " " + step
                    + " but worker " + slowest + " is at clock " + clocks[slowest] + " (staleness bound " + bound
                    + "); pull for " + unit + " " + step + " first");
        }
        clocks[worker] = step + 1;
    }

    /** @return {@code worker}'s clock: the step it pushes next here, or more */
    synchronized long clock(int worker) {
        return clocks[worker];
    }

    /** Sets every clock to {@code step} (a rollback to a checkpoint taken there: every worker resumes at it). */
    synchronized void rewindTo(long step) {
        Arrays.fill(clocks, step);
    }

    /**
     * The answer to a worker that takes over {@code request.rank()}: accepted when it asks for its rank's
     * clock or later, which is where the predecessor's schedule stopped on this server.
     */
    synchronized JoinAnswer join(JoinRequest request,
                                                          int serverRank) {
        if (request.step() < 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "join " + unit + " must be >= 0, got " + request.step());
        }
        long clock = clocks[request.rank()];
        return new JoinAnswer(serverRank, request.step() >= clock, clock);
    }

    /** @return the slowest worker's clock */
    synchronized long min() {
        long min = Long.MAX_VALUE;
        for (long c : clocks) {
            min = Math.min(min, c);
        }
        return min;
    }

    /** @return e.g. {@code worker 1 at clock 5, worker 3 at clock 4}: every worker below {@code clock} */
    synchronized String below(long clock) {
        List<String> laggards = new ArrayList<>();
        for (int w = 0; w < clocks.length; w++) {
            if (clocks[w] < clock) {
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

    private int slowest() {
        int slowest = 0;
        for (int w = 1; w < clocks.length; w++) {
            if (clocks[w] < clocks[slowest]) {
                slowest = w;
            }
        }
        return slowest;
    }
}
