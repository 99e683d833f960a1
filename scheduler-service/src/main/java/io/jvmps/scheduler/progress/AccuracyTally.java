package io.jvmps.scheduler.progress;

import java.util.Locale;

/**
 * Sum of correct predictions and evaluated samples over workers. Immutable.
 *
 * @param correct correctly classified samples
 * @param total   evaluated samples
 */
public record AccuracyTally(long correct, long total) {
    /** The empty tally. */
    public static final AccuracyTally ZERO = new AccuracyTally(0, 0);

    /** @return this plus another worker's counts */
    public AccuracyTally plus(long moreCorrect, long moreTotal) {
        return new AccuracyTally(correct + moreCorrect, total + moreTotal);
    }

    /** @return correct / total, or NaN when nothing was evaluated */
    public double accuracy() {
        return total == 0 ? Double.NaN : (double) correct / total;
    }

    /** @return the accuracy as a percentage with two decimals, e.g. {@code 98.76} */
    public String percent() {
        return String.format(Locale.ROOT, "%.2f", accuracy() * 100.0);
    }
}
