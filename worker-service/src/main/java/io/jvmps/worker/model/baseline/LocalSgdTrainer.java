package io.jvmps.worker.model.baseline;

import io.jvmps.client.train.LocalOptimizer;
import io.jvmps.client.dataset.EpochBatches;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Trains a model in one process without servers, with the same loop a PS worker runs: compute
 * gradients, update a master copy of the parameters, write the copy back into the model. Batches
 * follow {@link EpochBatches} for one worker, so the data order matches a one-worker cluster with
 * the same seed. The throughput and convergence baseline. Not thread-safe.
 */
public final class LocalSgdTrainer {
    private final TrainableModel model;
    private final LocalOptimizer optimizer;
    private final int batchSize;
    private final long dataSeed;
    private final Clock clock;
    private final Map<String, INDArray> params = new LinkedHashMap<>();

    /**
     * Initialises the model with {@code model.initialParams(initSeed)}.
     *
     * @param model     the model to train
     * @param optimizer the update rule
     * @param batchSize examples per step, &gt;= 1
     * @param initSeed  parameter initialisation seed
     * @param dataSeed  shuffling seed
     * @param clock     time source for the epoch reports
     */
    public LocalSgdTrainer(TrainableModel model, LocalOptimizer optimizer, int batchSize, long initSeed,
                           long dataSeed, Clock clock) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be >= 1, got " + batchSize);
        }
        this.model = model;
        this.optimizer = optimizer;
        this.batchSize = batchSize;
        this.dataSeed = dataSeed;
        this.clock = clock;
        params.putAll(model.initialParams(initSeed));
        model.setParams(params);
    }

    /**
     * Runs one epoch over {@code data}.
     *
     * @param data  training examples
     * @param epoch epoch number (changes the shuffle)
     * @return steps, mean loss and elapsed time
     */
    public EpochReport trainEpoch(LabeledData data, int epoch) {
        EpochBatches batches = new EpochBatches(data.size(), 1, 0, batchSize, dataSeed, epoch);
        Instant start = clock.instant();
        double lossSum = 0;
        long samples = 0;
        for (int step = 0; step < batches.stepsPerEpoch(); step++) {
            LabeledData batch = data.gather(batches.batchIndices(step));
            lossSum += step(batch);
            samples += batch.size();
        }
        int steps = batches.stepsPerEpoch();
        return new EpochReport(epoch, steps, samples, lossSum / steps, Duration.between(start, clock.instant()));
    }

    /**
     * One gradient step on one batch.
     *
     * @return the batch loss before the update
     */
    public double step(LabeledData batch) {
        StepResult result = model.gradients(batch.features(), batch.labels());
        for (Map.Entry<String, INDArray> e : result.gradients().entrySet()) {
            INDArray param = params.get(e.getKey());
            optimizer.apply(e.getKey(), param, e.getValue());
            model.setParam(e.getKey(), param);
        }
        return result.loss();
    }

    /** @return fraction of {@code data} the model classifies correctly */
    public double accuracy(LabeledData data) {
        return data.size() == 0 ? 0 : (double) model.evaluateCorrect(data, 1000) / data.size();
    }
}
