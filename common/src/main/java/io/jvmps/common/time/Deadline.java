package io.jvmps.common.time;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The end of a wait, on monotonic time: every wait-until-deadline loop of a node measures with one of these, so a
 * step of the wall clock neither ends a wait early nor stretches it. A loop asks {@link #passed()} or
 * {@link #passedAfter(Duration)} before it pauses and names {@link #timeout()} in its error. Immutable and
 * thread-safe.
 */
public final class Deadline {
    private final MonotonicClock clock;
    private final Duration timeout;
    private final long end;

    private Deadline(MonotonicClock clock, Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("a deadline's timeout must be >= 0, got " + timeout);
        }
        this.clock = clock;
        this.timeout = timeout;
        this.end = clock.nanos() + timeout.toNanos();
    }

    /** @return a deadline {@code timeout} from now on the JVM's monotonic clock */
    public static Deadline after(Duration timeout) {
        return after(timeout, MonotonicClock.SYSTEM);
    }

    /** @return a deadline {@code timeout} from now on {@code clock} */
    public static Deadline after(Duration timeout, MonotonicClock clock) {
        return new Deadline(clock, timeout);
    }

    /** @return the wait this deadline allows in all, for messages */
    public Duration timeout() {
        return timeout;
    }

    /** @return true once the deadline is reached */
    public boolean passed() {
        return clock.nanos() - end >= 0;
    }

    /** @return true when pausing {@code pause} from now would reach the deadline: no further round fits */
    public boolean passedAfter(Duration pause) {
        return clock.nanos() + pause.toNanos() - end >= 0;
    }

    /** @return the time left, zero once the deadline is reached */
    public Duration left() {
        return Duration.ofNanos(Math.max(0, end - clock.nanos()));
    }

    /** Parks the calling thread for {@code pause}, or until the deadline if that is sooner (or until interrupted). */
    public void pause(Duration pause) {
        long nanos = Math.min(pause.toNanos(), end - clock.nanos());
        if (nanos > 0) {
            LockSupport.parkNanos(nanos);
        }
    }
}
