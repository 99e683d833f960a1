package io.jvmps.scheduler.support;

import io.jvmps.common.time.MonotonicClock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A wall clock and a monotonic clock that tests move by hand, so time-dependent logic runs without sleeping.
 * {@link #advance} moves both, as time passing does; {@link #setDate} steps only the wall clock, as an
 * operator or NTP setting the host's date does.
 */
public final class MutableClock extends Clock implements MonotonicClock {
    private volatile Instant now;
    private volatile long nanos;

    /** @param start the initial instant (the monotonic reading starts at 0) */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /** Moves time forward: both clocks. */
    public void advance(Duration d) {
        now = now.plus(d);
        nanos += d.toNanos();
    }

    /** Sets the wall clock to {@code date}, forward or back; the monotonic clock does not move. */
    public void setDate(Instant date) {
        now = date;
    }

    @Override
    public long nanos() {
        return nanos;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
