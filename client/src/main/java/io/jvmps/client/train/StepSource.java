package io.jvmps.client.train;

import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.schedule.DynamicSchedule;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.client.schedule.ScheduledStep;

import java.util.Iterator;

/**
 * The steps of one fit of {@link SameDiffTrainer}, from any step on: the first step of the fit, or the step a
 * recovery resumes at (which trains again what the servers' rollback undid). Not thread-safe: the training thread
 * reads it.
 */
interface StepSource {
    /** @return the fit's steps in all, told to the servers as the job's length (an estimate when leased) */
    long total();

    /** @return the step after the fit's last, or -1 when the scheduler's leases decide where it ends */
    long end();

    /** @return the steps from {@code step} on, in order */
    Iterator<Step> from(long step);

    /**
     * One step.
     *
     * @param epoch   1-based epoch
     * @param inEpoch 1-based step within the epoch (within the partition when leased)
     * @param batch   its examples
     * @param last    whether it is this worker's last step of the fit (known in advance only for a fixed schedule)
     */
    record Step(int epoch, int inEpoch, LabeledData batch, boolean last) {
    }

    /** {@code epochs} passes over this worker's batches, from the fit's first step {@code first}. */
    final class Fixed implements StepSource {
        private final BatchSource batches;
        private final long first;
        private final long end;

        /** @param maxSteps at most this many steps (0: every epoch) */
        Fixed(BatchSource batches, int epochs, long first, long maxSteps) {
            this.batches = batches;
            this.first = first;
            long steps = (long) epochs * batches.perEpoch();
            this.end = first + (maxSteps > 0 ? Math.min(steps, maxSteps) : steps);
        }

        @Override
        public long total() {
            return end - first;
        }

        @Override
        public long end() {
            return end;
        }

        @Override
        public Iterator<Step> from(long step) {
            int perEpoch = batches.perEpoch();
            return new Iterator<>() {
                private long at = step;

                @Override
                public boolean hasNext() {
                    return at < end;
                }

                @Override
                public Step next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException("the fit ends at step " + end);
                    }
                    long offset = Math.max(0, at - first);
                    int epoch = (int) (offset / perEpoch);
                    int inEpoch = (int) (offset % perEpoch);
                    Step next = new Step(epoch + 1, inEpoch + 1, batches.batch(epoch, inEpoch), at == end - 1);
                    at++;
                    return next;
                }
            };
        }
    }

    /** Data partitions leased from the scheduler one at a time ({@link DynamicSchedule}). */
    final class Leased implements StepSource {
        private final DynamicSchedule schedule;
        private final Examples train;

        Leased(DynamicSchedule schedule, Examples train) {
            this.schedule = schedule;
            this.train = train;
        }

        /**
         * @param cached the tables the fit caches (none allowed)
         * @throws PsException INVALID_ARGUMENT for GEO servers, cached tables or a partition count that does not fit
         */
        static Leased of(io.jvmps.client.PsJob job, Examples train, LoopSettings settings, int partitions,
                         java.util.Set<String> cached) {
            int epochs = settings.epochs();
            int batchSize = settings.batchSize();
            if (job.semantics().mode() == ConsistencyMode.GEO) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "dynamic sharding runs in SYNC, ASYNC or SSP "
                        + "mode; the servers run GEO, whose rounds need a fixed schedule");
            }
            if (!cached.isEmpty()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "dynamic sharding does not take embedding caches "
                        + "(tables " + cached + "): a cache writes back on a last step a leased schedule learns of "
                        + "only when it ends");
            }
            if (epochs < 1 || batchSize < 1 || partitions < 1 || partitions > train.size()) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "dynamic sharding needs epochs and batch size of "
                        + "at least 1 and 1 to " + train.size() + " partitions (the examples), got epochs " + epochs
                        + ", batch size " + batchSize + ", partitions " + partitions);
            }
            return new Leased(new DynamicSchedule(train.size(), partitions, job.workers(), settings,
                    job.leases(epochs, partitions)), train);
        }

        @Override
        public long total() {
            return schedule.estimatedSteps();
        }

        @Override
        public long end() {
            return -1;
        }

        @Override
        public Iterator<Step> from(long step) {
            Iterator<ScheduledStep> steps = schedule.plan(step).steps().iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return steps.hasNext();
                }

                @Override
                public Step next() {
                    ScheduledStep s = steps.next();
                    return new Step(s.epoch(), s.step() + 1, train.gather(s.examples()), false);
                }
            };
        }
    }
}
