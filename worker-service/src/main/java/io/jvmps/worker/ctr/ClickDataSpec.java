package io.jvmps.worker.ctr;

/**
 * The hidden ground truth of a synthetic click data set. Each example has {@code fields} categorical
 * values, each drawn from its own vocabulary of {@code vocabulary} values with Zipf({@code zipf})
 * frequencies. The click probability is {@code sigmoid(bias + sum of per-value weights + sum of
 * per-pair weights)} over the crossed field pairs (0,1), (2,3), ... ({@code crosses} of them); every weight
 * is normal with the given spread and a pure function of {@code (seed, feature)}. With {@code crossRank} 0 each
 * pair of values has a weight of its own (a model learns it only from the examples of that very pair); with
 * {@code crossRank} k &gt; 0 a pair's weight is the dot product of k-value factors of its two values, scaled to the
 * same spread (the structure a factorisation machine assumes, so a model can learn it from each value's examples).
 *
 * @param fields      categorical fields per example, 2..64
 * @param vocabulary  values per field, 2..2^30
 * @param zipf        Zipf exponent of the value frequencies, &gt; 0
 * @param crosses     crossed field pairs, 0..fields/2
 * @param weightSigma standard deviation of a value's weight
 * @param crossSigma  standard deviation of a crossed pair's weight
 * @param bias        base logit (sets the average click rate)
 * @param seed        seed of the weights and of the examples
 * @param crossRank   0: a weight per crossed pair of values; k in 1..64: a rank-k factorisation of those weights
 */
public record ClickDataSpec(int fields, int vocabulary, double zipf, int crosses, double weightSigma,
                            double crossSigma, double bias, long seed, int crossRank) {

    /** Checks the ranges. */
    public ClickDataSpec {
        if (fields < 2 || fields > 64 || vocabulary < 2 || vocabulary > (1 << 30) || !(zipf > 0)
                || crosses < 0 || crosses > fields / 2 || weightSigma < 0 || crossSigma < 0 || crossRank < 0
                || crossRank > 64) {
            throw new IllegalArgumentException("bad click data spec: fields " + fields + " (2..64), vocabulary "
                    + vocabulary + " (2..2^30), zipf " + zipf + " (> 0), crosses " + crosses + " (0..fields/2), "
                    + "cross rank " + crossRank + " (0..64)");
        }
    }

    /** A truth with a weight of its own per crossed pair of values ({@code crossRank} 0). */
    public ClickDataSpec(int fields, int vocabulary, double zipf, int crosses, double weightSigma, double crossSigma,
                         double bias, long seed) {
        this(fields, vocabulary, zipf, crosses, weightSigma, crossSigma, bias, seed, 0);
    }

    /** @return ids per example in the wide part: every field value and every crossed pair */
    public int wideIds() {
        return fields + crosses;
    }

    /** @return the number of distinct field values (the deep table's vocabulary) */
    public long distinctValues() {
        return (long) fields * vocabulary;
    }
}
