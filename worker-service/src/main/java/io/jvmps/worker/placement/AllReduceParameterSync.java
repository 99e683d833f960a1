package io.jvmps.worker.placement;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.client.allreduce.RingAllReduce;
import io.jvmps.client.train.StepResult;
import io.jvmps.client.train.WorkerLocalParams;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.client.train.LocalOptimizer;

import java.util.List;
import java.util.Locale;

/**
 * Worker-local parameters kept in sync by a ring AllReduce: every step the local parameters'
 * gradients are flattened into one vector (model order), averaged across the workers, and applied
 * with the servers' update rule to this worker's copy, which is written into the model. All workers
 * start from the same seeded values and apply bit-identical averages, so their copies stay equal.
 * Not thread-safe.
 */
public class AllReduceParameterSync implements LocalParameterSync {
    private final List<ParamSpec> local;
    private final RingAllReduce ring;
    private final WorkerLocalParams params;
    private long steps;
    private long nanos;
    private long firstNanos;

    /**
     * @param model     the model; its local parameters must already hold their initial values
     * @param optimizer update rule (the servers')
     * @param ring      the AllReduce among the workers (the job's: it outlives this sync)
     */
    public AllReduceParameterSync(TrainableModel model, LocalOptimizer optimizer, RingAllReduce ring) {
        this.local = model.localParams();
        this.ring = ring;
        this.params = new WorkerLocalParams(model::param, model::setParam, local, optimizer, () -> ring);
    }

    @Override
    public void afterStep(long step, StepResult result) {
        long start = System.nanoTime();
        params.afterStep(step, result);
        long took = System.nanoTime() - start;
        if (steps == 0) {
            firstNanos = took;
        }
        steps++;
        nanos += took;
    }

    /** @return steps synchronised so far */
    public long steps() {
        return steps;
    }

    /** @return total wall time spent in {@link #afterStep}, nanoseconds */
    public long nanos() {
        return nanos;
    }

    @Override
    public String describe() {
        double later = steps > 1 ? (nanos - firstNanos) / 1e6 / (steps - 1) : 0;
        return String.format(Locale.ROOT, "AllReduce of %d worker-local values (%s) over %d workers: %d steps, "
                        + "%.3f ms per step (first step %.1f ms including connecting and waiting for the peers, "
                        + "later steps %.3f ms, including waits for slower peers)", params.size(),
                local.stream().map(ParamSpec::name).toList(), ring.link().size(), steps,
                steps == 0 ? 0 : nanos / 1e6 / steps, firstNanos / 1e6, later);
    }

    /** Nothing to release: the ring and its connections are the job's. */
    @Override
    public void close() {
    }
}
