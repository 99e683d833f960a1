package io.jvmps.common.time;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A deadline reads only its monotonic clock: what it says follows that clock's readings, nothing else. */
class DeadlineTest {
    private final AtomicLong now = new AtomicLong(-5_000_000_000L); // any origin, negative included
    private final MonotonicClock clock = now::get;

    @Test
    void passesExactlyWhenItsClockReachesTheTimeout() {
        Deadline deadline = Deadline.after(Duration.ofSeconds(10), clock);
        assertThat(deadline.passed()).isFalse();
        assertThat(deadline.left()).isEqualTo(Duration.ofSeconds(10));
        assertThat(deadline.passedAfter(Duration.ofSeconds(9))).isFalse();
        assertThat(deadline.passedAfter(Duration.ofSeconds(10))).as("a pause that ends on the deadline").isTrue();

        now.addAndGet(Duration.ofMillis(9_999).toNanos());
        assertThat(deadline.passed()).isFalse();
        assertThat(deadline.left()).isEqualTo(Duration.ofMillis(1));
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(deadline.passed()).isTrue();
        assertThat(deadline.left()).isZero();
        now.addAndGet(Duration.ofDays(1).toNanos());
        assertThat(deadline.left()).as("never negative").isZero();
        assertThat(deadline.timeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void holdsAcrossTheClocksOverflow() {
        now.set(Long.MAX_VALUE - 1_000);
        Deadline deadline = Deadline.after(Duration.ofNanos(2_000), clock);
        now.addAndGet(1_500); // wraps to a large negative reading
        assertThat(deadline.passed()).isFalse();
        assertThat(deadline.left()).isEqualTo(Duration.ofNanos(500));
        now.addAndGet(500);
        assertThat(deadline.passed()).isTrue();
    }

    @Test
    void aPauseNeverOutlastsTheDeadline() {
        Deadline done = Deadline.after(Duration.ZERO, clock);
        assertThat(done.passed()).isTrue();
        done.pause(Duration.ofDays(1)); // returns at once: nothing left to wait for
        assertThatThrownBy(() -> Deadline.after(Duration.ofSeconds(-1), clock))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
