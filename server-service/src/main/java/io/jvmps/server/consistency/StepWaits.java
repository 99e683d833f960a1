package io.jvmps.server.consistency;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * How long synchronous steps waited for their last gradient: per slice and step, the time from the first
 * worker's gradient to the one that completed the step (or to the moment a dropped worker stopped being
 * waited for). It is the time the fastest worker of the step stood waiting for the slowest one, a cost of
 * the workers' spread, not of the servers; read beside the workers' push and pull times it tells the two
 * apart. Thread-safe.
 */
public final class StepWaits {
    /** Records nothing: modes without a step barrier. */
    public static final StepWaits NONE = new StepWaits();

    private final LongAdder steps = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

    void record(long nanos) {
        long waited = Math.max(0, nanos);
        steps.increment();
        totalNanos.add(waited);
        maxNanos.accumulate(waited);
    }

    /** @return slice steps completed */
    public long steps() {
        return steps.sum();
    }

    /** @return their waits added up, in nanoseconds */
    public double totalNanos() {
        return totalNanos.sum();
    }

    /** @return the longest single wait so far, in nanoseconds */
    public long maxNanos() {
        return maxNanos.get();
    }
}
