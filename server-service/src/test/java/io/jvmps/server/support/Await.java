package io.jvmps.server.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Polls a condition until it holds or a deadline passes (tests never sleep to wait). */
public final class Await {
    private Await() {
    }

    /** Fails naming {@code what} (evaluated at the end) when {@code condition} does not hold within {@code within}. */
    public static void until(BooleanSupplier condition, Duration within, Supplier<String> what) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(condition.getAsBoolean()).as(what.get() + " within " + within).isTrue();
    }
}
