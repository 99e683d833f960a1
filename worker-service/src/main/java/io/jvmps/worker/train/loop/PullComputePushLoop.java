package io.jvmps.worker.train.loop;

import io.jvmps.worker.train.progress.PhaseTimes;
import io.jvmps.worker.train.progress.StepTally;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.ScheduledStep;
import io.jvmps.client.schedule.StepPlan;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.worker.placement.LocalParameterSync;
import org.nd4j.linalg.api.ndarray.INDArray;


/**
 * The loop of the SYNC, ASYNC and SSP modes: for every step t, pull the parameters (asking for
 * version t; the server's consistency policy decides what that waits for), compute gradients on
 * this worker's batch, push them for step t. With static sharding every worker runs the same number of
 * steps with batches of equal size ({@link EpochBatches}), which is what synchronous SGD needs; with
 * dynamic sharding (ASYNC, SSP) the batches come from the data partitions the scheduler leases. Only the
 * PS-managed parameters are pulled and pushed; worker-local ones (hybrid placement) are averaged
 * among the workers by a {@link LocalParameterSync} after each push.
 */
public class PullComputePushLoop implements TrainingLoop {
    private final TrainableModel model;
    private final DenseClient client;
    private final Examples train;
    private final LoopSettings settings;
    private final StepPlan plan;
    private final StepReporter reporter;
    private final ModelParameters params;
    private final LocalParameterSync localSync;
    private final PushedGradients pushed;

    public PullComputePushLoop(TrainableModel model, DenseClient client, Examples train, LoopSettings settings, StepPlan plan,
                        StepReporter reporter, LocalParameterSync localSync, PushedGradients pushed) {
        this.localSync = localSync;
        this.pushed = pushed;
        this.model = model;
        this.client = client;
        this.train = train;
        this.settings = settings;
        this.plan = plan;
        this.reporter = reporter;
        this.params = new ModelParameters(model);
    }

    @Override
    public long totalSteps() {
        return plan.total();
    }

    @Override
    public TrainingSummary run() {
        StepTally tally = new StepTally(reporter, settings.startStep(), totalSteps());
        PhaseTimes times = tally.times();
        for (ScheduledStep scheduled : plan.steps()) {
            long global = tally.global();
            times.lap();
            params.pullIntoModel(client, global);
            times.pullDone();
            LabeledData batch = train.gather(scheduled.examples());
            StepResult result = model.gradients(batch.features(), batch.labels());
            Steps.delay(settings);
            times.computeDone();
            INDArray[] gradients = params.gradients(result);
            client.push(global, gradients);
            pushed.add(gradients);
            times.pushDone();
            localSync.afterStep(global, result);
            tally.stepDone(scheduled.epoch(), scheduled.step(), result.loss(), batch.size());
        }
        params.pullIntoModel(client, tally.global());
        return tally.summary();
    }
}
