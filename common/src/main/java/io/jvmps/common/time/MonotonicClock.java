package io.jvmps.common.time;

/**
 * A source of monotonic time for measuring how long something took or how long a node has been silent:
 * unlike the wall clock it never steps when the host's time is set (NTP, a VM resumed, an operator), so a
 * jump of the date cannot make a deadline pass or a node look dead. Only differences between two readings
 * of one instance mean anything. Implementations are thread-safe.
 */
@FunctionalInterface
public interface MonotonicClock {
    /** The JVM's {@link System#nanoTime()}. */
    MonotonicClock SYSTEM = System::nanoTime;

    /** @return the current reading, in nanoseconds from an arbitrary origin */
    long nanos();
}
