package io.jvmps.server.consistency;

import io.jvmps.optimizer.DenseSums;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.BitSet;

/**
 * The gradients received so far for one slice at one step: their sum and which worker ranks sent
 * them. Not thread-safe: guarded by the slice's lock.
 */
final class StepAccumulator {
    private final long step;
    private final long startedAt;
    private final BitSet ranks = new BitSet();
    private INDArray sum;

    /** @param startedAt when its first gradient arrived (a nanosecond tick) */
    StepAccumulator(long step, long startedAt) {
        this.step = step;
        this.startedAt = startedAt;
    }

    long step() {
        return step;
    }

    long startedAt() {
        return startedAt;
    }

    boolean has(int rank) {
        return ranks.get(rank);
    }

    /**
     * Adds a gradient; the first one is kept as the running sum (the push owns it).
     *
     * @return true when {@code gradient} was only read (added into the sum) and may be reused
     */
    boolean add(int rank, INDArray gradient) {
        ranks.set(rank);
        if (sum == null) {
            sum = gradient;
            return false;
        }
        DenseSums.add(sum, gradient);
        return true;
    }

    /** @return true when every rank in {@code needed} has pushed */
    boolean covers(BitSet needed) {
        BitSet missing = (BitSet) needed.clone();
        missing.andNot(ranks);
        return missing.isEmpty();
    }

    /** @return a copy of the ranks that pushed */
    BitSet pushed() {
        return (BitSet) ranks.clone();
    }

    int count() {
        return ranks.cardinality();
    }

    /** @return the ranks in {@code [0, workers)} that have not pushed, e.g. {@code [1, 3]} */
    BitSet missing(int workers) {
        BitSet missing = new BitSet();
        missing.set(0, workers);
        missing.andNot(ranks);
        return missing;
    }

    /** @return the average of the gradients (computed in place in the sum) */
    INDArray mean() {
        int n = ranks.cardinality();
        if (n > 1) {
            DenseSums.divide(sum, n);
        }
        return sum;
    }
}
