package io.jvmps.client.schedule;

import io.jvmps.common.protocol.PartitionLease;
import io.jvmps.client.dataset.EpochBatches;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Dynamic data sharding: this worker's steps come from data partitions the scheduler leases one at a
 * time. Partition p of P in an epoch is every P-th position of that epoch's seeded permutation (the one
 * all workers compute, see {@link EpochBatches}), cut into batches, so a partition's examples are the same
 * whoever trains it. Finishing a partition's batches reports it done with the request for the next one;
 * the schedule ends when the scheduler has none left to lease, or after {@code maxSteps} steps of this
 * worker (the unfinished partition then goes back to the queue when the worker leaves).
 *
 * <p>It remembers the step at which this worker started each partition, so after the servers rolled back
 * to a checkpoint, {@link #plan(long)} from the step the worker resumes at first trains again what the
 * rollback undid: the rest of the partition that step falls in, then every partition started after it, in
 * the same order, and only then leases new ones. Not thread-safe: the training thread uses it.
 */
public final class DynamicSchedule {
    private static final Logger log = LoggerFactory.getLogger(DynamicSchedule.class);

    /** Where leases come from: records the finished partition (or none, -1) and leases the next one. */
    @FunctionalInterface
    public interface Leases {
        PartitionLease next(int doneEpoch, int donePartition);
    }

    /** A partition this worker started at {@code firstStep}; {@code reported} once the scheduler was told it is done. */
    private record Started(int epoch, int partition, long firstStep, boolean reported) {
    }

    private final int samples;
    private final int partitions;
    private final LoopSettings settings;
    private final Leases leases;
    private final long estimate;
    private final int stepsPerPartition;
    private final List<Started> history = new ArrayList<>();
    private long origin = -1;

    /**
     * @param samples    training examples N (&gt;= partitions)
     * @param partitions P per epoch
     * @param workers    the job's worker count, for the estimate of this worker's steps
     */
    public DynamicSchedule(int samples, int partitions, int workers, LoopSettings settings, Leases leases) {
        this.samples = samples;
        this.partitions = partitions;
        this.settings = settings;
        this.leases = leases;
        this.stepsPerPartition = batches(0, 0).stepsPerEpoch();
        long all = (long) stepsPerPartition * partitions * settings.epochs();
        long share = (all + workers - 1) / workers;
        this.estimate = settings.maxSteps() > 0 ? Math.min(share, settings.maxSteps()) : share;
    }

    /** @return the steps this worker is expected to run over the job: its share of every epoch's partitions */
    public long estimatedSteps() {
        return estimate;
    }

    /**
     * @param startStep the step this worker trains next (its first step, or where it resumes after a rollback)
     * @return the steps from there: what a rollback undid first, then newly leased partitions
     */
    public StepPlan plan(long startStep) {
        if (origin < 0) {
            origin = startStep;
        }
        Deque<Started> replay = new ArrayDeque<>();
        int firstUndone = history.size();
        for (int i = 0; i < history.size(); i++) {
            if (history.get(i).firstStep() + stepsPerPartition > startStep) {
                firstUndone = i;
                break;
            }
        }
        List<Started> undone = new ArrayList<>(history.subList(firstUndone, history.size()));
        history.subList(firstUndone, history.size()).clear();
        int skip = 0;
        if (!undone.isEmpty() && undone.get(0).firstStep() < startStep) {
            skip = (int) (startStep - undone.get(0).firstStep()); // the checkpoint holds its first batches
        }
        replay.addAll(undone);
        if (!undone.isEmpty()) {
            log.warn("Resuming at step {}: training again {} data partition(s) the rollback undid (from batch {} of "
                    + "the first)", startStep, undone.size(), skip);
        }
        int first = skip;
        return new StepPlan(() -> new LeasedSteps(startStep, replay, first), estimate);
    }

    private EpochBatches batches(int epoch, int partition) {
        return new EpochBatches(samples, partitions, partition, settings.batchSize(), settings.seed(), epoch + 1);
    }

    private final class LeasedSteps implements Iterator<ScheduledStep> {
        private final Deque<Started> replay;
        private Started current;
        private EpochBatches batches;
        private int step;
        private long index;
        private boolean ended;

        LeasedSteps(long startStep, Deque<Started> replay, int skip) {
            this.index = startStep;
            this.replay = replay;
            if (!replay.isEmpty()) {
                open(replay.poll(), startStep - skip);
                step = skip;
            }
        }

        @Override
        public boolean hasNext() {
            if (ended) {
                return false;
            }
            if (settings.maxSteps() > 0 && index - origin >= settings.maxSteps()) {
                ended = true;
                return false;
            }
            if (batches != null && step < batches.stepsPerEpoch()) {
                return true;
            }
            if (!replay.isEmpty()) {
                open(replay.poll(), index);
                return true;
            }
            boolean report = current != null && !current.reported();
            PartitionLease lease = leases.next(report ? current.epoch() : -1, report ? current.partition() : -1);
            if (report) {
                history.set(history.size() - 1, new Started(current.epoch(), current.partition(), current.firstStep(),
                        true));
            }
            if (!lease.granted()) {
                log.info("No data partition left to lease ({} of {} done): this worker's schedule ends at step {}",
                        lease.done(), lease.total(), index);
                ended = true;
                batches = null;
                return false;
            }
            log.info("Training data partition {} of epoch {} ({} steps; {} of {} partitions done)", lease.partition(),
                    lease.epoch() + 1, stepsPerPartition, lease.done(), lease.total());
            open(new Started(lease.epoch(), lease.partition(), index, false), index);
            return true;
        }

        @Override
        public ScheduledStep next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no data partition left");
            }
            long at = index++;
            return new ScheduledStep(current.epoch() + 1, step++, at, Math.max(estimate, index), batches);
        }

        private void open(Started partition, long firstStep) {
            current = new Started(partition.epoch(), partition.partition(), firstStep, partition.reported());
            history.add(current);
            batches = batches(partition.epoch(), partition.partition());
            step = 0;
        }
    }
}
