package io.jvmps.client.train;

import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import org.nd4j.linalg.dataset.DataSet;

/**
 * The trainer's batches by epoch and position in the epoch; a recovery may ask for an earlier one again. Not
 * thread-safe: the training thread reads them.
 */
interface BatchSource {
    /** @return batches per epoch */
    int perEpoch();

    /** @return the batch at {@code inEpoch} of epoch {@code epoch} */
    LabeledData batch(int epoch, int inEpoch);

    /** A user's batches, iterated in order; going back (a recovery) starts a new iteration and skips ahead. */
    final class OfIterable implements BatchSource {
        private final Iterable<DataSet> batches;
        private final int perEpoch;
        private java.util.Iterator<DataSet> position;
        private long next = -1;

        OfIterable(Iterable<DataSet> batches) {
            this.batches = batches;
            int n = 0;
            if (batches instanceof java.util.Collection<?> collection) {
                n = collection.size();
            } else {
                for (java.util.Iterator<DataSet> it = batches.iterator(); it.hasNext(); it.next()) {
                    n++;
                }
            }
            this.perEpoch = n;
        }

        @Override
        public int perEpoch() {
            return perEpoch;
        }

        @Override
        public LabeledData batch(int epoch, int inEpoch) {
            DataSet batch = dataSet(epoch, inEpoch);
            return new LabeledData(batch.getFeatures(), batch.getLabels());
        }

        private DataSet dataSet(int epoch, int inEpoch) {
            long wanted = (long) epoch * perEpoch + inEpoch;
            if (position == null || next != wanted || inEpoch == 0) {
                position = batches.iterator();
                for (int skip = 0; skip < inEpoch; skip++) {
                    position.next();
                }
            }
            next = wanted + 1;
            return position.next();
        }
    }

    /** This worker's shard of a data set, reshuffled every epoch, read batch by batch. */
    final class Sharded implements BatchSource {
        private final Examples data;
        private final int workers;
        private final int rank;
        private final int batchSize;
        private final long seed;
        private EpochBatches schedule;

        Sharded(Examples data, int workers, int rank, int batchSize, long seed) {
            this.data = data;
            this.workers = workers;
            this.rank = rank;
            this.batchSize = batchSize;
            this.seed = seed;
            this.schedule = new EpochBatches(data.size(), workers, rank, batchSize, seed, 0);
        }

        @Override
        public int perEpoch() {
            return schedule.stepsPerEpoch();
        }

        @Override
        public LabeledData batch(int epoch, int inEpoch) {
            if (schedule.epoch() != epoch) {
                schedule = new EpochBatches(data.size(), workers, rank, batchSize, seed, epoch);
            }
            return data.gather(schedule.batchIndices(inEpoch));
        }
    }
}
