package io.jvmps.client.train;

import io.jvmps.client.PsJob;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;

/**
 * Trains any SameDiff classification graph through the job's servers, without a parameter-server loop of
 * one's own: every trainable float32 variable of the graph is a dense parameter on the servers (declared
 * in the graph's order, seeded by rank 0 with the graph's current values), and each step pulls the
 * parameters at the step's version, computes the batch's gradients with the graph, and pushes them; the
 * servers' optimizer and consistency mode (SYNC, ASYNC or SSP) do the rest. In SYNC every worker must run
 * the same number of steps (give each worker a shard of the same number of batches). GEO, which trains
 * locally between rounds, is run by the stock worker only. A lost server is recovered as the stock worker
 * does it ({@link PsJob#resume}): every worker rolls back to the newest checkpoint and goes on from its step,
 * with the batch that step had. Each step's progress goes to the scheduler
 * (its job status and dashboard show the worker's epoch, step, loss and throughput). Not thread-safe: one
 * training thread.
 */
public final class SameDiffTrainer {
    private static final Logger log = LoggerFactory.getLogger(SameDiffTrainer.class);
    private static final int LOG_EVERY = 50;

    private final PsJob job;
    private final SameDiffGraph graph;
    private PsJob.DenseStart dense;
    private long step;

    /**
     * @param job   the job this worker joined
     * @param graph the graph to train (see {@link SameDiffGraph#of}); the trainer sets its parameters
     * @throws PsException INVALID_ARGUMENT when the servers run GEO
     */
    public SameDiffTrainer(PsJob job, SameDiffGraph graph) {
        if (job.semantics().mode() == ConsistencyMode.GEO) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "the library trainer runs the SYNC, ASYNC and SSP "
                    + "modes; the servers run GEO (ps.consistency.mode), whose local rounds the stock worker runs");
        }
        this.job = job;
        this.graph = graph;
    }

    /** @return the graph being trained */
    public SameDiffGraph graph() {
        return graph;
    }

    /** @return the next step this worker pushes (its clock) */
    public long step() {
        return step;
    }

    /** Trains {@code epochs} passes over an iterator, resetting it before each. */
    public Result fit(DataSetIterator batches, int epochs) {
        return fit(() -> {
            batches.reset();
            return batches;
        }, epochs);
    }

    /**
     * Trains {@code epochs} passes over this worker's batches, then pulls the servers' values into the graph.
     *
     * @param batches features {@code [n, d]} and one-hot labels {@code [n, k]} per batch
     * @return steps run, last loss, examples and seconds
     * @throws PsException the servers' or the wire's error (TIMEOUT naming the server and route when a
     *                     step waited too long, e.g. for a SYNC worker that ran fewer steps), or a lost server
     *                     that could not be recovered (no checkpoint, or past the recovery timeout)
     */
    public Result fit(Iterable<DataSet> batches, int epochs) {
        if (epochs < 1) {
            throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
        }
        long started = System.nanoTime();
        start();
        int perEpoch = count(batches);
        if (perEpoch == 0) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "no batches to train on");
        }
        List<ParamSpec> params = dense.client().shardMap().params();
        INDArray[] values = params.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape(), 'c'))
                .toArray(INDArray[]::new);
        long first = step;
        long end = first + (long) epochs * perEpoch;
        long examples = 0;
        double loss = Double.NaN;
        long windowStart = System.nanoTime();
        long windowExamples = 0;
        java.util.Iterator<DataSet> position = null;
        long positionAt = -1;
        while (step < end) {
            long offset = Math.max(0, step - first);
            int epoch = (int) (offset / perEpoch);
            int inEpoch = (int) (offset % perEpoch);
            if (position == null || positionAt != offset || inEpoch == 0) {
                position = batches.iterator();       // a new epoch, or a recovery moved the step back
                for (int skip = 0; skip < inEpoch; skip++) {
                    position.next();
                }
            }
            DataSet batch = position.next();
            positionAt = offset + 1;
            try {
                pullInto(values, params);
                StepResult result = graph.gradients(batch.getFeatures(), batch.getLabels());
                if (!Double.isFinite(result.loss())) {
                    throw new PsException(ErrorCode.INVALID_ARGUMENT, "step " + step + " gave loss " + result.loss()
                            + ": not pushed (check the data and the learning rate)");
                }
                INDArray[] gradients = params.stream().map(p -> result.gradients().get(p.name()))
                        .toArray(INDArray[]::new);
                dense.client().push(step, gradients);
                step++;
                loss = result.loss();
            } catch (PsException e) {
                ServerRecovery.Resumed resumed = job.resume(dense, e);   // rethrows what is no server loss
                dense = new PsJob.DenseStart(resumed.client(), dense.startStep(), dense.recovery());
                step = resumed.step();
                position = null;
                continue;
            }
            examples += batch.numExamples();
            windowExamples += batch.numExamples();
            double seconds = (System.nanoTime() - windowStart) / 1e9;
            job.reportProgress(epoch + 1, inEpoch + 1, step, loss, seconds > 0 ? windowExamples / seconds : 0,
                    dense.client().bytesPushed(), dense.client().bytesPulled());
            if (seconds > 10) {
                windowStart = System.nanoTime();
                windowExamples = 0;
            }
            if ((step - first) % LOG_EVERY == 0) {
                log.info("worker {} epoch {} step {}: loss {}", job.rank(), epoch + 1, step, loss);
            }
        }
        pullInto(values, params);
        return new Result(step - first, loss, examples, (System.nanoTime() - started) / 1e9);
    }

    private static int count(Iterable<DataSet> batches) {
        if (batches instanceof java.util.Collection<?> collection) {
            return collection.size();
        }
        int n = 0;
        for (java.util.Iterator<DataSet> it = batches.iterator(); it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    /**
     * @param batches test features and one-hot labels
     * @return how many of their examples the graph's current values classify correctly (arg-max of the
     * prediction against the arg-max of the label)
     */
    public Evaluation evaluate(Iterable<DataSet> batches) {
        long correct = 0;
        long examples = 0;
        for (DataSet batch : batches) {
            INDArray predicted = graph.predict(batch.getFeatures()).argMax(1);
            INDArray expected = batch.getLabels().argMax(1);
            correct += predicted.eq(expected).castTo(DataType.INT64).sumNumber().longValue();
            examples += batch.numExamples();
        }
        return new Evaluation(correct, examples);
    }

    /**
     * Writes the graph with its current (trained) values as a SameDiff model file, which
     * {@code SameDiff.load(file, false)} reads in any program. The file appears whole or not at all.
     */
    public void save(Path file) {
        graph.save(file);
    }

    private void start() {
        if (dense != null) {
            return;
        }
        INDArray[] initial = graph.params().stream().map(p -> graph.param(p.name())).toArray(INDArray[]::new);
        dense = job.declareDense(graph.params(), initial);
        step = dense.startStep();
        log.info("worker {} of {} trains {} in {} mode from step {}", job.rank(), job.workers(), graph,
                job.semantics().mode(), step);
    }

    private void pullInto(INDArray[] values, List<ParamSpec> params) {
        dense.client().pull(step, values);
        for (int p = 0; p < values.length; p++) {
            graph.setParam(params.get(p).name(), values[p]);
        }
    }

    /**
     * What a {@link #fit} did.
     *
     * @param steps    steps this worker ran
     * @param lastLoss the last batch's mean loss
     * @param examples examples trained on
     * @param seconds  wall time, pulls and pushes included
     */
    public record Result(long steps, double lastLoss, long examples, double seconds) {
    }

    /**
     * A test-set count.
     *
     * @param correct  examples classified correctly
     * @param examples examples evaluated
     */
    public record Evaluation(long correct, long examples) {
        /** @return correct / examples, NaN without examples */
        public double accuracy() {
            return examples == 0 ? Double.NaN : (double) correct / examples;
        }
    }
}
