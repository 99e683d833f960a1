package io.jvmps.worker.train;

import io.jvmps.worker.train.loop.ModelParameters;
import io.jvmps.client.control.SchedulerSession;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.dataset.Examples;
import io.jvmps.common.protocol.ServerDescription;
import io.jvmps.common.time.Deadline;
import io.jvmps.worker.config.CsvProperties;
import io.jvmps.worker.config.DataFormat;
import io.jvmps.worker.config.WorkerProperties;
import io.jvmps.worker.export.ExportManifest;
import io.jvmps.worker.export.ExportRequests;
import io.jvmps.worker.export.ModelExporter;
import io.jvmps.worker.model.TrainableModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * What a job writes as its model ({@code ps.worker.output.model-dir}): rank 0 serves exports asked for over REST while it
 * trains (each to {@code <model-dir>/step-<N>/}) and writes the final model when training ends, after every
 * worker's last push where pushes can come after its own. Used by the job's thread only.
 */
final class JobExports {
    private static final Logger log = LoggerFactory.getLogger(JobExports.class);

    private final WorkerProperties props;
    private final ExportRequests exports;
    private final JobClocks clocks;
    private final SchedulerSession session;

    JobExports(WorkerProperties props, ExportRequests exports, JobClocks clocks, SchedulerSession session) {
        this.props = props;
        this.exports = exports;
        this.clocks = clocks;
        this.session = session;
    }

    /**
     * Rank 0 writes the trained model to {@code ps.worker.output.model-dir} (when set). In SYNC its last pull holds
     * the servers' final values; in ASYNC, SSP and GEO other workers may still push after it, so it first
     * waits until every worker has reported its result and then pulls the servers' values once more.
     */
    void finalModel(TrainableModel model, DenseClient client, Examples test, ServerDescription semantics, int rank,
                    int workers, int servers, long steps) {
        if (rank != 0 || props.output().modelDir().isBlank()) {
            return;
        }
        if (semantics.mode() != io.jvmps.common.protocol.ConsistencyMode.SYNC) {
            pullFinalValues(model, client);
        }
        new ModelExporter(Path.of(props.output().modelDir()), clocks.wall())
                .export(model, test, props.training().evalBatchSize(), manifest(props.model(), semantics, workers, servers, steps));
    }

    /**
     * What runs after every step: on rank 0 with an export folder, an export asked for over REST, written to
     * {@code <model-dir>/step-<N>/} with the values this step computed its gradients with.
     */
    LongConsumer atStepEnd(TrainableModel model, Examples test, ServerDescription semantics, int rank, int workers,
                           int servers) {
        String refusal = refusal(rank);
        if (refusal != null) {
            exports.close(refusal);
            return global -> { };
        }
        return global -> exports.serve(() -> new ModelExporter(
                Path.of(props.output().modelDir(), "step-" + global), clocks.wall())
                .export(model, test, props.training().evalBatchSize(), manifest(props.model(), semantics, workers, servers, global)));
    }

    /** @return why this worker cannot export while training, or null when it can (rank 0 with an export folder) */
    String refusal(int rank) {
        return rank != 0 ? "this worker has rank " + rank + "; rank 0 exports"
                : props.output().modelDir().isBlank() ? "ps.worker.output.model-dir is not set" : null;
    }

    ExportManifest manifest(String model, ServerDescription semantics, int workers, int servers, long steps) {
        boolean csv = props.dataset().format() == DataFormat.CSV;
        CsvProperties format = props.dataset().csv();
        return new ExportManifest(null, null, model, props.graph().names(), 0, 0,
                props.dataset().format().name(), csv ? format.label() : null, csv ? format.header() : null,
                csv ? format.delimiter() : null, semantics.mode().name(), workers, servers, steps, 0, 0,
                Double.NaN, null);
    }

    private void pullFinalValues(TrainableModel model, DenseClient client) {
        if (!awaitEveryResult()) {
            log.warn("Exporting this worker's own last values: not every worker has reported its result");
            return;
        }
        new ModelParameters(model).pullIntoModel(client, 0);
        log.info("Every worker has finished; pulled the servers' final values for the export");
    }

    /**
     * Waits up to {@code ps.worker.servers.wait-timeout} until the scheduler's job is FINISHED (every worker
     * has reported its result, so no more pushes come).
     *
     * @return whether it finished in time
     */
    boolean awaitEveryResult() {
        Deadline deadline = Deadline.after(props.servers().waitTimeout(),
                clocks.deadlines());
        String state = session.client().job().state();
        while (!"FINISHED".equals(state) && !deadline.passed()) {
            deadline.pause(java.time.Duration.ofMillis(200));
            state = session.client().job().state();
        }
        if (!"FINISHED".equals(state)) {
            log.warn("The job is {} after waiting {} (ps.worker.servers.wait-timeout) for every worker's result",
                    state, deadline.timeout());
        }
        return "FINISHED".equals(state);
    }
}
