package io.jvmps.common.metrics;

import java.util.Arrays;

/**
 * A click model's (binary classifier's) scores on a test shard, kept so that shards merge exactly: how many clicks
 * and how many non-clicks fell into each of {@value #BUCKETS} equal-width buckets of predicted click probability
 * over {@code [0, 1]}, and the summed log loss. Workers send one in their result; the scheduler adds them up and
 * reads the job's AUC, log loss and accuracy from the sum, as a distributed AUC is computed in Paddle's parameter
 * server. The AUC counts two examples in one bucket as a tie (one half), so it differs from the exact rank AUC by
 * at most the share of click/non-click pairs whose probabilities are closer than {@code 1/BUCKETS}.
 *
 * <p>Bucket {@code b} holds probabilities {@code p} with {@code floor(p * BUCKETS) == b} ({@code p == 1} in the
 * last), so buckets {@code >= BUCKETS / 2} are exactly the predictions {@code p >= 0.5} counted as a click.
 * Immutable value (the arrays are not copied on the way in: do not change them after).
 *
 * @param clicks     examples labelled 1, by bucket; length {@value #BUCKETS}
 * @param nonClicks  examples labelled 0, by bucket; length {@value #BUCKETS}
 * @param logLossSum the examples' summed negative log-likelihood, probabilities clamped to {@code [1e-7, 1 - 1e-7]}
 */
public record ClickHistogram(long[] clicks, long[] nonClicks, double logLossSum) {
    /** Probability buckets per histogram. */
    public static final int BUCKETS = 4096;
    private static final double CLAMP = 1e-7;

    /** @return a histogram of no examples */
    public static ClickHistogram empty() {
        return new ClickHistogram(new long[BUCKETS], new long[BUCKETS], 0);
    }

    /**
     * @param probabilities predicted click probabilities, each in {@code [0, 1]}
     * @param labels        the true labels, each 0 or 1, same length
     * @return their histogram
     * @throws IllegalArgumentException naming the first example whose probability is outside [0, 1] (or NaN) or
     *                                  whose label is not 0 or 1, or for lengths that differ
     */
    public static ClickHistogram of(double[] probabilities, double[] labels) {
        return of(probabilities, labels, 0);
    }

    /**
     * @param probabilities predicted click probabilities, each in {@code [0, 1]}
     * @param labels        the true labels, each 0 or 1, same length
     * @param firstExample  the number an error gives the first example (its index in the whole set)
     * @return their histogram
     * @throws IllegalArgumentException as {@link #of(double[], double[])}
     */
    public static ClickHistogram of(double[] probabilities, double[] labels, long firstExample) {
        if (probabilities.length != labels.length) {
            throw new IllegalArgumentException(probabilities.length + " predictions for " + labels.length + " labels");
        }
        long[] clicks = new long[BUCKETS];
        long[] nonClicks = new long[BUCKETS];
        double logLoss = 0;
        for (int i = 0; i < probabilities.length; i++) {
            double p = probabilities[i];
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("example " + (firstExample + i) + " is predicted " + p + "; a click model predicts a"
                        + " probability in [0, 1] (end the graph with a sigmoid)");
            }
            double clamped = Math.min(1 - CLAMP, Math.max(CLAMP, p));
            int bucket = Math.min(BUCKETS - 1, (int) (p * BUCKETS));
            if (labels[i] == 1) {
                clicks[bucket]++;
                logLoss -= Math.log(clamped);
            } else if (labels[i] == 0) {
                nonClicks[bucket]++;
                logLoss -= Math.log(1 - clamped);
            } else {
                throw new IllegalArgumentException("example " + (firstExample + i) + " is labelled " + labels[i]
                        + "; a click label is 0 or 1");
            }
        }
        return new ClickHistogram(clicks, nonClicks, logLoss);
    }

    /**
     * @return why this histogram cannot be a shard's scores (wrong lengths, negative counts, a log loss that is
     * negative or not finite), or null when it can
     */
    public String problem() {
        if (clicks == null || nonClicks == null || clicks.length != BUCKETS || nonClicks.length != BUCKETS) {
            return "clicks and nonClicks must each hold " + BUCKETS + " bucket counts, got "
                    + (clicks == null ? "none" : clicks.length) + " and " + (nonClicks == null ? "none" : nonClicks.length);
        }
        for (int b = 0; b < BUCKETS; b++) {
            if (clicks[b] < 0 || nonClicks[b] < 0) {
                return "bucket " + b + " has a negative count";
            }
        }
        if (!Double.isFinite(logLossSum) || logLossSum < 0) {
            return "logLossSum must be finite and >= 0, got " + logLossSum;
        }
        return null;
    }

    /** @return the bucket-wise sum of this and {@code other}: the scores of both shards */
    public ClickHistogram plus(ClickHistogram other) {
        long[] c = clicks.clone();
        long[] n = nonClicks.clone();
        for (int b = 0; b < BUCKETS; b++) {
            c[b] += other.clicks[b];
            n[b] += other.nonClicks[b];
        }
        return new ClickHistogram(c, n, logLossSum + other.logLossSum);
    }

    /** @return examples counted */
    public long examples() {
        return Arrays.stream(clicks).sum() + Arrays.stream(nonClicks).sum();
    }

    /** @return examples predicted {@code p >= 0.5} and clicked, plus those predicted below and not clicked */
    public long correct() {
        long correct = 0;
        for (int b = 0; b < BUCKETS; b++) {
            correct += b >= BUCKETS / 2 ? clicks[b] : nonClicks[b];
        }
        return correct;
    }

    /**
     * @return the probability that a random click is scored above a random non-click (ties in a bucket count one
     * half), or NaN while either class is missing
     */
    public double auc() {
        double nonClickWins = 0;
        double clicksBelow = 0;
        for (int b = 0; b < BUCKETS; b++) {
            nonClickWins += nonClicks[b] * (clicksBelow + clicks[b] / 2.0);
            clicksBelow += clicks[b];
        }
        // per non-click, the clicks scored below it and half those in its bucket: the pairs a click does not win
        double nonClickTotal = Arrays.stream(nonClicks).sum();
        if (clicksBelow == 0 || nonClickTotal == 0) {
            return Double.NaN;
        }
        return 1 - nonClickWins / (clicksBelow * nonClickTotal);
    }

    /** @return the mean log loss, or NaN with no examples */
    public double logLoss() {
        long n = examples();
        return n == 0 ? Double.NaN : logLossSum / n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClickHistogram h && Arrays.equals(clicks, h.clicks) && Arrays.equals(nonClicks, h.nonClicks)
                && Double.compare(logLossSum, h.logLossSum) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(clicks) + Arrays.hashCode(nonClicks)) + Double.hashCode(logLossSum);
    }

    @Override
    public String toString() {
        return "ClickHistogram[examples=" + examples() + ", auc=" + auc() + ", logLoss=" + logLoss() + "]";
    }
}
