package io.jvmps.worker.train;

import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.worker.data.EpochBatches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Dynamic data sharding: this worker's steps come from data partitions the scheduler leases one at a
 * time. Partition p of P in an epoch is every P-th position of that epoch's seeded permutation (the one
 * all workers compute, see {@link EpochBatches}), cut into batches, so a partition's examples are the same
 * whoever trains it. Finishing a partition's batches reports it done with the request for the next one;
 * the schedule ends when the scheduler has none left to lease, or after {@code maxSteps} steps (then the
 * unfinished partition goes back to the queue when this worker leaves). One pass; not thread-safe.
 */
final class DynamicSchedule implements Iterable<ScheduledStep> {
    private static final Logger log = LoggerFactory.getLogger(DynamicSchedule.class);

    /** Where leases come from: records the finished partition (or none, -1) and leases the next one. */
    @FunctionalInterface
    interface Leases {
        PartitionLease next(int doneEpoch, int donePartition);
    }

    private final int samples;
    private final int partitions;
    private final LoopSettings settings;
    private final Leases leases;
    private final long estimate;

    /**
     * @param samples    training examples N (&gt;= partitions)
     * @param partitions P per epoch
     * @param workers    the job's worker count, for the estimate of this worker's steps
     */
    DynamicSchedule(int samples, int partitions, int workers, LoopSettings settings, Leases leases) {
        this.samples = samples;
        this.partitions = partitions;
        this.settings = settings;
        this.leases = leases;
        long all = (long) new EpochBatches(samples, partitions, 0, settings.batchSize(), settings.seed(), 1)
                .stepsPerEpoch() * partitions * settings.epochs();
        long share = (all + workers - 1) / workers;
        this.estimate = settings.maxSteps() > 0 ? Math.min(share, settings.maxSteps()) : share;
    }

    /** @return this worker's share of the job's steps if the worker count stays as it is (for progress) */
    long estimatedSteps() {
        return estimate;
    }

    @Override
    public Iterator<ScheduledStep> iterator() {
        return new Iterator<>() {
            private EpochBatches batches;
            private int epoch = -1;
            private int partition = -1;
            private int step;
            private long index;
            private boolean ended;

            @Override
            public boolean hasNext() {
                if (ended) {
                    return false;
                }
                if (settings.maxSteps() > 0 && index >= settings.maxSteps()) {
                    ended = true;
                    return false;
                }
                if (batches != null && step < batches.stepsPerEpoch()) {
                    return true;
                }
                PartitionLease lease = leases.next(epoch, partition);
                if (!lease.granted()) {
                    log.info("No data partition left to lease ({} of {} done): this worker's schedule ends after {} "
                            + "steps", lease.done(), lease.total(), index);
                    ended = true;
                    return false;
                }
                epoch = lease.epoch();
                partition = lease.partition();
                batches = new EpochBatches(samples, partitions, partition, settings.batchSize(), settings.seed(),
                        epoch + 1);
                step = 0;
                log.info("Training data partition {} of epoch {} ({} steps; {} of {} partitions done)", partition,
                        epoch + 1, batches.stepsPerEpoch(), lease.done(), lease.total());
                return true;
            }

            @Override
            public ScheduledStep next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no data partition left");
                }
                return new ScheduledStep(epoch + 1, step++, index++, Math.max(estimate, index), batches);
            }
        };
    }
}
