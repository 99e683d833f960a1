package io.jvmps.worker.train;

import io.jvmps.common.time.MonotonicClock;

import java.time.Clock;

/**
 * The two time sources a worker's job reads. Immutable.
 *
 * @param wall      dates what the job writes (an exported model's manifest) and paces its progress log
 * @param deadlines measures every wait's deadline (waiting for servers, peers, initial values, a join, a recovery),
 *                  on monotonic time so that a step of the host's date neither ends a wait early nor stretches it
 */
public record JobClocks(Clock wall, MonotonicClock deadlines) {

    /** @return the system's clocks */
    public static JobClocks system() {
        return new JobClocks(Clock.systemUTC(), MonotonicClock.SYSTEM);
    }
}
