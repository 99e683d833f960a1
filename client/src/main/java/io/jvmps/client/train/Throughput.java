package io.jvmps.client.train;

/**
 * Examples per second over a window of recent steps, started again after ten seconds, for the progress reports.
 * Not thread-safe: the training thread's.
 */
final class Throughput {
    private static final double WINDOW_SECONDS = 10;
    private long windowStart = System.nanoTime();
    private long windowExamples;

    /** @return the examples per second of the window so far, counting {@code examples} more (0 before any time) */
    double add(int examples) {
        windowExamples += examples;
        double seconds = (System.nanoTime() - windowStart) / 1e9;
        double rate = seconds > 0 ? windowExamples / seconds : 0;
        if (seconds > WINDOW_SECONDS) {
            windowStart = System.nanoTime();
            windowExamples = 0;
        }
        return rate;
    }
}
