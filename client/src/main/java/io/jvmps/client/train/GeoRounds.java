package io.jvmps.client.train;

import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.util.List;

/**
 * The worker's side of GEO-SGD (Paddle's geo mode) for {@link SameDiffTrainer}: the graph trains a local
 * copy with plain SGD; at the end of every round of {@code interval} steps (and after the job's last step)
 * the change since the last pull, divided by the workers, is pushed with the round number as its step, and
 * the servers' sum of every worker's changes is pulled to go on from. Rounds are numbered from 0 over the
 * job's steps, so a worker resumed at a checkpoint's step (a round's first) keeps the numbering. Not
 * thread-safe: the training thread's.
 */
final class GeoRounds {
    private final SameDiffGraph graph;
    private final List<ParamSpec> params;
    private final int interval;
    private final double learningRate;
    private final int workers;
    private final long end;
    private INDArray[] base;

    /**
     * @param interval     steps per round ({@code ps.consistency.geo-interval}), &gt;= 1
     * @param learningRate the local SGD rate ({@code ps.consistency.geo-learning-rate})
     * @param end          the step after the job's last
     */
    GeoRounds(SameDiffGraph graph, List<ParamSpec> params, int interval, double learningRate, int workers, long end) {
        if (interval < 1) {
            throw new IllegalArgumentException("GEO interval must be >= 1, got " + interval);
        }
        this.graph = graph;
        this.params = params;
        this.interval = interval;
        this.learningRate = learningRate;
        this.workers = workers;
        this.end = end;
    }

    /** @return whether the graph holds values pulled since the last push (or recovery) */
    boolean pulled() {
        return base != null;
    }

    /** Keeps the pulled values as the base the next deltas are measured from (the graph holds them too). */
    void pulledFrom(INDArray[] values) {
        base = new INDArray[values.length];
        for (int p = 0; p < values.length; p++) {
            base[p] = values[p].dup('c');
        }
    }

    /** Drops the base: the servers rolled back, so the next step pulls again. */
    void forget() {
        base = null;
    }

    /** One local SGD step on the graph's values. */
    void trainLocally(StepResult result) {
        for (ParamSpec p : params) {
            if (p.name().equals(SameDiffTrainer.STEP_BARRIER)) {
                continue; // not the graph's: it never changes
            }
            INDArray gradient = result.gradients().get(p.name());
            INDArray value = graph.param(p.name());
            graph.setParam(p.name(), value.sub(gradient.reshape(value.shape()).mul(learningRate)));
        }
    }

    /** @param done steps done so far @return whether a round ends with them */
    boolean roundEnds(long done) {
        return done % interval == 0 || done == end;
    }

    /** @param done steps done so far, at a round's end @return the round just ended */
    long round(long done) {
        return (done - 1) / interval;
    }

    /** @return this worker's deltas since the last pull, divided by the workers, in parameter order */
    INDArray[] deltas() {
        INDArray[] deltas = new INDArray[params.size()];
        for (int p = 0; p < deltas.length; p++) {
            if (params.get(p).name().equals(SameDiffTrainer.STEP_BARRIER)) {
                deltas[p] = base[p].mul(0);
                continue;
            }
            INDArray value = graph.param(params.get(p).name());
            deltas[p] = value.reshape(base[p].shape()).sub(base[p]).divi(workers);
        }
        return deltas;
    }

    /**
     * @param done steps done, at a round's end
     * @return the version a pull waits for: every worker's rounds after the last step, else none
     */
    long pullVersion(long done) {
        return done == end ? (end + interval - 1) / interval : 0;
    }
}
