package io.jvmps.worker.ctr;

import io.jvmps.common.sparse.RowPlacement;

import java.util.SplittableRandom;

/**
 * Examples drawn from a {@link ClickDataSpec}: field values, sampled clicks, and the true click
 * probability of each example (the oracle). Feature ids are stable 64-bit values: a field value is
 * {@code field * vocabulary + value} (so the deep table's vocabulary is the ids {@code 0 .. F*V - 1}); a crossed
 * pair {@code c} is {@code 1 << 62 | c << 48 | (a * vocabulary + b)}.
 * Immutable once generated.
 */
public final class ClickData {
    private final ClickDataSpec spec;
    private final int[] values;
    private final byte[] labels;
    private final float[] truth;

    private ClickData(ClickDataSpec spec, int[] values, byte[] labels, float[] truth) {
        this.spec = spec;
        this.values = values;
        this.labels = labels;
        this.truth = truth;
    }

    /**
     * @param spec   the ground truth
     * @param size   examples
     * @param stream which independent stream of examples (e.g. 0 train, 1 test); weights are shared
     * @return the examples
     */
    public static ClickData generate(ClickDataSpec spec, int size, long stream) {
        ZipfSampler zipf = new ZipfSampler(spec.vocabulary(), spec.zipf());
        SplittableRandom random = new SplittableRandom(RowPlacement.mix(spec.seed() ^ RowPlacement.mix(stream + 1)));
        int fields = spec.fields();
        int[] values = new int[size * fields];
        byte[] labels = new byte[size];
        float[] truth = new float[size];
        for (int n = 0; n < size; n++) {
            double logit = spec.bias();
            for (int f = 0; f < fields; f++) {
                int v = zipf.sample(random);
                values[n * fields + f] = v;
                logit += spec.weightSigma() * gaussian(spec.seed(), valueId(spec, f, v));
            }
            for (int c = 0; c < spec.crosses(); c++) {
                logit += spec.crossSigma() * crossWeight(spec, c, values[n * fields + 2 * c],
                        values[n * fields + 2 * c + 1]);
            }
            double p = 1 / (1 + Math.exp(-logit));
            truth[n] = (float) p;
            labels[n] = random.nextDouble() < p ? (byte) 1 : (byte) 0;
        }
        return new ClickData(spec, values, labels, truth);
    }

    /** @return the id of a field's value: {@code field * vocabulary + value}, so the values are ids 0 .. F*V-1 */
    public static long valueId(ClickDataSpec spec, int field, int value) {
        return (long) field * spec.vocabulary() + value;
    }

    /** @return the id of crossed pair {@code c} with values {@code a} and {@code b} */
    public static long crossId(ClickDataSpec spec, int c, int a, int b) {
        return (1L << 62) | ((long) c << 48) | ((long) a * spec.vocabulary() + b);
    }

    /** @return crossed pair {@code c}'s weight for values {@code a} and {@code b}, before the spread: variance 1 */
    private static double crossWeight(ClickDataSpec spec, int c, int a, int b) {
        int rank = spec.crossRank();
        if (rank == 0) {
            return gaussian(spec.seed(), crossId(spec, c, a, b));
        }
        long left = valueId(spec, 2 * c, a);
        long right = valueId(spec, 2 * c + 1, b);
        double dot = 0;
        for (int k = 0; k < rank; k++) {
            long factor = (2L << 60) | ((long) k << 52); // a factor's id: apart from every value and crossed pair
            dot += gaussian(spec.seed(), factor | left) * gaussian(spec.seed(), factor | right);
        }
        return dot / Math.sqrt(rank);
    }

    /** A standard normal value that depends only on (seed, id). */
    private static double gaussian(long seed, long id) {
        long h1 = RowPlacement.mix(seed ^ RowPlacement.mix(id));
        long h2 = RowPlacement.mix(h1);
        double u1 = ((h1 >>> 11) + 1) * 0x1.0p-53;
        double u2 = (h2 >>> 11) * 0x1.0p-53;
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** @return number of examples */
    public int size() {
        return labels.length;
    }

    /** @return the spec */
    public ClickDataSpec spec() {
        return spec;
    }

    /** @return 1 for a click, 0 otherwise */
    public int label(int example) {
        return labels[example];
    }

    /** @return the true click probability of an example */
    public float truth(int example) {
        return truth[example];
    }

    /**
     * @param examples example indices
     * @return the deep table ids, {@code fields} per example, example-major
     */
    public long[] deepIds(int[] examples) {
        int fields = spec.fields();
        long[] ids = new long[examples.length * fields];
        for (int i = 0; i < examples.length; i++) {
            for (int f = 0; f < fields; f++) {
                ids[i * fields + f] = valueId(spec, f, values[examples[i] * fields + f]);
            }
        }
        return ids;
    }

    /**
     * @param examples example indices
     * @return the wide table ids, {@link ClickDataSpec#wideIds()} per example: the field values, then the crosses
     */
    public long[] wideIds(int[] examples) {
        int fields = spec.fields();
        int width = spec.wideIds();
        long[] ids = new long[examples.length * width];
        for (int i = 0; i < examples.length; i++) {
            int base = examples[i] * fields;
            for (int f = 0; f < fields; f++) {
                ids[i * width + f] = valueId(spec, f, values[base + f]);
            }
            for (int c = 0; c < spec.crosses(); c++) {
                ids[i * width + fields + c] = crossId(spec, c, values[base + 2 * c], values[base + 2 * c + 1]);
            }
        }
        return ids;
    }

    /** @return the AUC of the true probabilities against the sampled clicks: the best any model can expect */
    public double oracleAuc() {
        return Auc.of(truth, labels);
    }

    /** @return the fraction of examples that are clicks */
    public double clickRate() {
        long clicks = 0;
        for (byte label : labels) {
            clicks += label;
        }
        return (double) clicks / Math.max(1, labels.length);
    }
}
