package io.jvmps.scheduler.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand, so time-dependent logic runs without sleeping. */
public final class MutableClock extends Clock {
    private volatile Instant now;

    /** @param start the initial instant */
    public MutableClock(Instant start) {
        this.now = start;
    }

    /** Moves time forward. */
    public void advance(Duration d) {
        now = now.plus(d);
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
