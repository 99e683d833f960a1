package io.jvmps.worker.ctr;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws ranks {@code 0 .. n-1} with probability proportional to {@code 1 / (rank + 1)^s} (Zipf), by binary
 * search in a precomputed cumulative table ({@code 8 n} bytes). Immutable and thread-safe; the randomness
 * comes from the caller's generator.
 */
final class ZipfSampler {
    private final double[] cumulative;

    ZipfSampler(int n, double exponent) {
        if (n < 1 || !(exponent > 0)) {
            throw new IllegalArgumentException("Zipf needs n >= 1 and exponent > 0, got n=" + n + " s=" + exponent);
        }
        cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Math.pow(i + 1, -exponent);
            cumulative[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
    }

    int sample(SplittableRandom random) {
        int at = Arrays.binarySearch(cumulative, random.nextDouble());
        int rank = at >= 0 ? at : -at - 1;
        return Math.min(rank, cumulative.length - 1);
    }

    /** @return the probability mass of the {@code k} most frequent ranks */
    double headMass(int k) {
        return k <= 0 ? 0 : cumulative[Math.min(k, cumulative.length) - 1];
    }
}
