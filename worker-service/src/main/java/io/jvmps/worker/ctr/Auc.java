package io.jvmps.worker.ctr;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Area under the ROC curve by ranks (Mann-Whitney U): the probability that a random click scores above a
 * random non-click, ties counting one half. {@code O(n log n)}. Stateless.
 */
public final class Auc {
    private Auc() {
    }

    /**
     * @param scores any real scores, higher meaning more likely a click
     * @param labels 1 for a click, 0 otherwise, same length
     * @return the AUC in [0, 1], or NaN when only one class is present
     */
    public static double of(float[] scores, byte[] labels) {
        if (scores.length != labels.length) {
            throw new IllegalArgumentException(scores.length + " scores for " + labels.length + " labels");
        }
        Integer[] order = IntStream.range(0, scores.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> scores[i]));
        double rankSumOfClicks = 0;
        long clicks = 0;
        int i = 0;
        while (i < order.length) {
            int j = i;
            while (j + 1 < order.length && scores[order[j + 1]] == scores[order[i]]) {
                j++;
            }
            double averageRank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                if (labels[order[k]] == 1) {
                    rankSumOfClicks += averageRank;
                    clicks++;
                }
            }
            i = j + 1;
        }
        long others = scores.length - clicks;
        if (clicks == 0 || others == 0) {
            return Double.NaN;
        }
        return (rankSumOfClicks - clicks * (clicks + 1) / 2.0) / ((double) clicks * others);
    }
}
