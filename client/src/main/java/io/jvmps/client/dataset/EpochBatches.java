package io.jvmps.client.dataset;

import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;

import java.util.Random;

/**
 * One worker's batches for one epoch of data-parallel training. Every worker shuffles
 * {@code [0, N)} with the same seeded permutation ({@code new Random(seed * 31 + epoch)}, a
 * Fisher-Yates shuffle), keeps the positions {@code p} with {@code p % W == rank} among the first
 * {@code floor(N / W) * W} positions, and cuts them into consecutive batches of {@code B} (the
 * last one may be smaller). So shards are disjoint, every worker sees exactly
 * {@code floor(N / W)} examples, and all workers run the same number of steps with the same batch
 * sizes, which lock-step (BSP) training needs. Immutable.
 */
public final class EpochBatches {
    private final int[] permutation;
    private final int numWorkers;
    private final int rank;
    private final int batchSize;
    private final int perWorker;
    private final int epoch;

    /**
     * @param datasetSize N, the number of examples, &gt;= numWorkers
     * @param numWorkers  W, &gt;= 1
     * @param rank        this worker's rank, in {@code [0, W)}
     * @param batchSize   B, &gt;= 1
     * @param seed        the job's data seed, the same on every worker
     * @param epoch       epoch number, &gt;= 0
     * @throws PsException INVALID_ARGUMENT naming the bad value
     */
    public EpochBatches(int datasetSize, int numWorkers, int rank, int batchSize, long seed, int epoch) {
        require(numWorkers >= 1, "number of workers must be >= 1, got " + numWorkers);
        require(rank >= 0 && rank < numWorkers, "worker rank " + rank + " is outside [0, " + numWorkers + ")");
        require(batchSize >= 1, "batch size must be >= 1, got " + batchSize);
        require(epoch >= 0, "epoch must be >= 0, got " + epoch);
        require(datasetSize >= numWorkers, "data set of " + datasetSize + " examples is too small for "
                + numWorkers + " workers (each needs at least one example)");
        this.permutation = permutation(datasetSize, new Random(seed * 31 + epoch));
        this.numWorkers = numWorkers;
        this.rank = rank;
        this.batchSize = batchSize;
        this.perWorker = datasetSize / numWorkers;
        this.epoch = epoch;
    }

    /** @return the epoch this schedule belongs to */
    public int epoch() {
        return epoch;
    }

    /** @return examples this worker sees in the epoch: {@code floor(N / W)} */
    public int samplesPerWorker() {
        return perWorker;
    }

    /** @return number of batches, the same on every worker: {@code ceil(floor(N / W) / B)} */
    public int stepsPerEpoch() {
        return (perWorker + batchSize - 1) / batchSize;
    }

    /**
     * @param step batch number within the epoch, in {@code [0, stepsPerEpoch())}
     * @return the example indices of that batch (a fresh array)
     */
    public int[] batchIndices(int step) {
        if (step < 0 || step >= stepsPerEpoch()) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "step " + step + " is outside [0, "
                    + stepsPerEpoch() + ") for epoch " + epoch);
        }
        int first = step * batchSize;
        int count = Math.min(batchSize, perWorker - first);
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = permutation[(first + i) * numWorkers + rank];
        }
        return out;
    }

    /**
     * A contiguous split of {@code [0, n)} for evaluation: sizes differ by at most one, the first
     * {@code n % W} ranks get the extra example, and the ranges together cover every index once.
     *
     * @param n          number of examples, &gt;= 0
     * @param numWorkers W, &gt;= 1
     * @param rank       in {@code [0, W)}
     * @return this rank's range
     */
    public static IndexRange shardRange(int n, int numWorkers, int rank) {
        require(n >= 0, "data set size must be >= 0, got " + n);
        require(numWorkers >= 1, "number of workers must be >= 1, got " + numWorkers);
        require(rank >= 0 && rank < numWorkers, "worker rank " + rank + " is outside [0, " + numWorkers + ")");
        int base = n / numWorkers;
        int extra = n % numWorkers;
        int from = rank * base + Math.min(rank, extra);
        return new IndexRange(from, from + base + (rank < extra ? 1 : 0));
    }

    private static int[] permutation(int n, Random random) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, message);
        }
    }
}
