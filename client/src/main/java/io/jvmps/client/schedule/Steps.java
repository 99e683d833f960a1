package io.jvmps.client.schedule;

import io.jvmps.client.dataset.EpochBatches;

import java.util.concurrent.locks.LockSupport;

/** Step arithmetic every loop shares: the batch schedule, the step budget, the benchmark delay. */
public final class Steps {
    private Steps() {
    }

    public static EpochBatches batches(int samples, int workers, int rank, LoopSettings settings, int epoch) {
        return new EpochBatches(samples, workers, rank, settings.batchSize(), settings.seed(), epoch);
    }

    /**
     * The job's steps in order, epoch by epoch, stopping after {@link #total} steps, without the first
     * {@link LoopSettings#startStep()} (done before a restore).
     *
     * @return a one-pass iterable of the steps
     */
    public static Iterable<ScheduledStep> schedule(int samples, int workers, int rank, LoopSettings settings) {
        long total = total(samples, workers, rank, settings);
        return () -> new java.util.Iterator<ScheduledStep>() {
            private int epoch = 1;
            private int step;
            private long index;
            private EpochBatches batches = batches(samples, workers, rank, settings, 1);

            @Override
            public boolean hasNext() {
                if (index >= total) {
                    return false;
                }
                while (step >= batches.stepsPerEpoch()) {
                    if (epoch >= settings.epochs()) {
                        return false;
                    }
                    epoch++;
                    step = 0;
                    batches = batches(samples, workers, rank, settings, epoch);
                }
                return true;
            }

            @Override
            public ScheduledStep next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException("the schedule has " + total + " steps");
                }
                return new ScheduledStep(epoch, step++, index++, total, batches);
            }

            private java.util.Iterator<ScheduledStep> skipDone() {
                for (long i = 0; i < settings.startStep() && hasNext(); i++) {
                    next();
                }
                return this;
            }
        }.skipDone();
    }

    /** @return steps per epoch times epochs, capped by {@code maxSteps} when set */
    public static long total(int samples, int workers, int rank, LoopSettings settings) {
        long total = (long) batches(samples, workers, rank, settings, 1).stepsPerEpoch() * settings.epochs();
        return settings.maxSteps() > 0 ? Math.min(total, settings.maxSteps()) : total;
    }

    /**
     * @param leased the dynamic schedule, or null for a static shard
     * @return the steps this worker runs over the whole job, from step 0: its share of the leased partitions
     *         (an estimate), else its static shard's steps; what it tells the servers as the job's length
     */
    public static long wholeJob(DynamicSchedule leased, int samples, int workers, int rank, LoopSettings settings) {
        return leased != null ? leased.estimatedSteps() : total(samples, workers, rank, settings);
    }

    /** Pauses for the configured per-step delay (benchmarks of slow workers; zero by default). */
    public static void delay(LoopSettings settings) {
        if (!settings.stepDelay().isZero()) {
            LockSupport.parkNanos(settings.stepDelay().toNanos());
        }
    }
}
