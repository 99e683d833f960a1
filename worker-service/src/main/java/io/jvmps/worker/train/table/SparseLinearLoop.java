package io.jvmps.worker.train.table;

import io.jvmps.worker.train.loop.TrainingLoop;
import io.jvmps.worker.train.progress.PhaseTimes;
import io.jvmps.worker.train.progress.StepTally;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.ScheduledStep;
import io.jvmps.client.schedule.StepPlan;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.dataset.LibSvmFile;
import io.jvmps.client.dataset.SparseBatch;
import io.jvmps.common.protocol.ErrorCode;
import io.jvmps.common.protocol.PsException;
import io.jvmps.worker.ctr.EmbeddingLookup;
import io.jvmps.worker.linear.SparseSoftmax;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The loop of a softmax over sparse features: for every step t, pull the bias at version t (the
 * consistency mode decides what that waits for), read the batch's LibSVM lines as sparse rows, look up the
 * weight rows of their features, compute, push the rows' gradients to the table (the servers' optimizer
 * applies them as they come) and the bias gradient for step t. Not thread-safe; run once.
 */
public class SparseLinearLoop implements TrainingLoop {
    private final SparseSoftmax model;
    private final LibSvmFile train;
    private final EmbeddingLookup weights;
    private final DenseClient dense;
    private final LoopSettings settings;
    private final StepPlan plan;
    private final StepReporter reporter;

    /** @param plan the steps: this rank's static shard, or the partitions the scheduler leases */
    public SparseLinearLoop(SparseSoftmax model, LibSvmFile train, EmbeddingLookup weights, DenseClient dense,
                     LoopSettings settings, StepPlan plan, StepReporter reporter) {
        this.model = model;
        this.train = train;
        this.weights = weights;
        this.dense = dense;
        this.settings = settings;
        this.plan = plan;
        this.reporter = reporter;
    }

    @Override
    public long totalSteps() {
        return plan.total();
    }

    /**
     * @throws PsException INVALID_ARGUMENT when the loss stops being a finite number (a learning rate too
     *                     high for the data's scale)
     */
    @Override
    public TrainingSummary run() {
        StepTally tally = new StepTally(reporter, settings.startStep(), totalSteps());
        INDArray[] bias = {Nd4j.create(DataType.FLOAT, model.classes())};
        PhaseTimes times = tally.times();
        for (ScheduledStep scheduled : plan.steps()) {
            long global = tally.global();
            times.lap();
            dense.pull(global, bias);
            SparseBatch batch = train.gatherSparse(scheduled.examples());
            float[] rows = batch.nonZeros() == 0 ? new float[0] : weights.lookup(batch.ids());
            times.pullDone();
            SparseSoftmax.Step result = model.step(batch, rows, bias[0].toFloatVector());
            if (!Double.isFinite(result.loss())) {
                throw new PsException(ErrorCode.INVALID_ARGUMENT, "the loss became " + result.loss() + " at step "
                        + global + ": lower the servers' learning rate (ps.optimizer.learning-rate) or scale the "
                        + "features");
            }
            Steps.delay(settings);
            times.computeDone();
            if (batch.nonZeros() > 0) {
                weights.update(global, result.rowGradients());
            }
            dense.push(global, new INDArray[]{Nd4j.create(result.biasGradient(), new long[]{model.classes()},
                    DataType.FLOAT)});
            times.pushDone();
            tally.stepDone(scheduled.epoch(), scheduled.step(), result.loss(), batch.size());
        }
        weights.flush();
        return tally.summary();
    }
}
