package io.jvmps.client.train;

import io.jvmps.client.PsJob;
import io.jvmps.client.control.ServerRecovery;
import io.jvmps.client.data.SparseClient;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.common.protocol.ConsistencyMode;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.common.sharding.ParamSpec;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * One fit of {@link SameDiffTrainer}: the pull-compute-push loop over a {@link StepSource} (GEO rounds or one
 * dense push per step, the tables' rows through a {@link TableStep}), recovering from a server loss by resuming at
 * the step the servers restored. Holds what a recovery replaces (the dense client, the sparse client, the step),
 * which the trainer reads back when the fit ends. Not thread-safe: the training thread's.
 */
final class FitLoop {
    private static final Logger log = LoggerFactory.getLogger(SameDiffTrainer.class);
    private static final int LOG_EVERY = 50;

    private final PsJob job;
    private final SameDiffGraph graph;
    private final WorkerLocalParams local;
    private final List<ParamSpec> params;
    private final INDArray[] values;
    private final GeoRounds geo;
    private final PhaseTimes times = new PhaseTimes();
    private PsJob.DenseStart dense;
    private SparseClient sparse;
    private long step;
    private long examples;
    private double loss = Double.NaN;

    /**
     * @param local the worker-local parameters, or null
     * @param step  the step this worker pushes next
     * @param end   one past the fit's last step (GEO's last round)
     */
    FitLoop(PsJob job, SameDiffGraph graph, WorkerLocalParams local, PsJob.DenseStart dense, SparseClient sparse,
            long step, long end) {
        this.job = job;
        this.graph = graph;
        this.local = local;
        this.dense = dense;
        this.sparse = sparse;
        this.step = step;
        this.params = dense.client().shardMap().params();
        this.values = emptyValues(params);
        this.geo = job.semantics().mode() == ConsistencyMode.GEO
                ? new GeoRounds(graph, params, job.semantics().geoInterval(), job.semantics().geoLearningRate(),
                job.workers(), end) : null;
    }

    /** @return whether the servers run GEO (the table step keeps a round's rows then) */
    boolean geo() {
        return geo != null;
    }

    /**
     * Trains every step of the source.
     *
     * @param tableStep the fit's table step, or null for a graph without tables
     */
    void run(StepSource source, TableStep tableStep) {
        long first = step;
        Throughput throughput = new Throughput();
        java.util.Iterator<StepSource.Step> steps = source.from(step);
        while (steps.hasNext()) {
            StepSource.Step next = steps.next();
            LabeledData batch = next.batch();
            try {
                train(next, tableStep);
            } catch (PsException e) {
                ServerRecovery.Resumed resumed = job.resume(dense, e);   // rethrows what is no server loss
                dense = new PsJob.DenseStart(resumed.client(), dense.startStep(), dense.recovery());
                sparse = job.sparse();
                step = resumed.step();
                if (geo != null) {
                    geo.forget();
                }
                if (tableStep != null) {
                    tableStep.recovered(sparse);
                }
                steps = source.from(step);
                continue;
            }
            examples += batch.size();
            job.reportProgress(next.epoch(), next.inEpoch(), step, loss, throughput.add(batch.size()),
                    dense.client().bytesPushed() + (sparse == null ? 0 : sparse.bytesPushed()),
                    dense.client().bytesPulled() + (sparse == null ? 0 : sparse.bytesPulled()), batch.size());
            if ((step - first) % LOG_EVERY == 0) {
                log.info("worker {} epoch {} step {}: loss {}", job.rank(), next.epoch(), step, loss);
            }
        }
    }

    /** One step: read parameters and rows, one pass of the graph, send the gradients (or keep them, in GEO). */
    private void train(StepSource.Step next, TableStep tableStep) {
        LabeledData batch = next.batch();
        times.start();
        if (geo == null || !geo.pulled()) {
            pullInto(geo == null ? step : 0);
            if (geo != null) {
                geo.pulledFrom(values);
            }
        }
        TableRows rows = graph.tables().isEmpty() ? null : TableRows.of(graph.tables(), batch.ids());
        StepResult result;
        if (rows == null) {
            times.pulled();
            result = graph.gradients(batch.features(), batch.labels());
        } else {
            tableStep.fill(rows, sparse);
            times.pulled();
            result = graph.gradients(batch.features(), batch.labels(), rows.lookupRows(), batch.ids());
        }
        times.computed();
        if (!Double.isFinite(result.loss())) {
            throw new PsException(ErrorCode.INVALID_ARGUMENT, "step " + step + " gave loss "
                    + result.loss() + ": not pushed (check the data and the learning rate)");
        }
        if (rows != null) {
            tableStep.update(rows, sparse, step, result, next.last());
        }
        if (geo == null) {
            INDArray[] gradients = params.stream().map(p -> p.name().equals(SameDiffTrainer.STEP_BARRIER)
                            ? Nd4j.zeros(DataType.FLOAT, p.shape()) : result.gradients().get(p.name()))
                    .toArray(INDArray[]::new);
            dense.client().push(step, gradients);
            if (local != null) {
                local.afterStep(step, result);
            }
            step++;
        } else {
            geo.trainLocally(result);
            step++;
            if (geo.roundEnds(step)) {
                if (tableStep != null) {
                    // before the dense round: the last pull waits for every worker's, so their rows
                    tableStep.roundEnded(sparse, geo.round(step));
                }
                dense.client().push(geo.round(step), geo.deltas());
                pullInto(geo.pullVersion(step));
                geo.pulledFrom(values);
            }
        }
        times.pushed(); // a GEO round's pull at its end counts here too
        loss = result.loss();
    }

    /** The fit's last pull: the servers' values once every worker's last step is in (GEO's last round did it). */
    void finish() {
        if (geo == null) {
            pullInto(step);
        }
    }

    /** @return what the fit did, its wall time from {@code started} (monotonic nanoseconds) */
    SameDiffTrainer.Result result(long firstStep, long started) {
        return new SameDiffTrainer.Result(step - firstStep, loss, examples, (System.nanoTime() - started) / 1e9,
                times.seconds());
    }

    PsJob.DenseStart dense() {
        return dense;
    }

    SparseClient sparse() {
        return sparse;
    }

    long step() {
        return step;
    }

    private void pullInto(long minVersion) {
        pullInto(dense, graph, values, minVersion);
    }

    /** Pulls the dense parameters at {@code minVersion} or later into the graph (the step barrier stays out). */
    static void pullInto(PsJob.DenseStart dense, SameDiffGraph graph, long minVersion) {
        pullInto(dense, graph, emptyValues(dense.client().shardMap().params()), minVersion);
    }

    private static void pullInto(PsJob.DenseStart dense, SameDiffGraph graph, INDArray[] values, long minVersion) {
        List<ParamSpec> params = dense.client().shardMap().params();
        dense.client().pull(minVersion, values);
        for (int p = 0; p < values.length; p++) {
            if (params.get(p).name().equals(SameDiffTrainer.STEP_BARRIER)) {
                continue;
            }
            graph.setParam(params.get(p).name(), values[p]);
        }
    }

    private static INDArray[] emptyValues(List<ParamSpec> params) {
        return params.stream().map(p -> Nd4j.create(DataType.FLOAT, p.shape(), 'c')).toArray(INDArray[]::new);
    }
}
