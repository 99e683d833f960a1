package io.jvmps.client.schedule;

/**
 * The steps a training loop runs, in order, and how many it expects (for progress reports).
 *
 * @param steps one pass over the steps
 * @param total the expected number of steps (exact for a static shard, an estimate with dynamic sharding)
 */
public record StepPlan(Iterable<ScheduledStep> steps, long total) {

    /** @return the fixed schedule of rank {@code rank}'s own shard (static sharding) */
    public static StepPlan fixed(int samples, int workers, int rank, LoopSettings settings) {
        return new StepPlan(Steps.schedule(samples, workers, rank, settings),
                Steps.total(samples, workers, rank, settings));
    }
}
