package io.jvmps.worker.train.loop;

import io.jvmps.worker.train.progress.PhaseTimes;
import io.jvmps.worker.train.progress.StepTally;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.ScheduledStep;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.data.DenseClient;
import io.jvmps.client.dataset.Examples;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.train.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * GEO-SGD (Paddle's geo mode): the worker trains a local copy with plain SGD and, every
 * {@code interval} steps (and once at the end), pushes the change since its last pull divided by
 * the number of workers; servers add these deltas, and the worker pulls the fresh global copy and
 * goes on from it. Pushes carry the sync round as their step. The last pull waits until every
 * live worker's final delta has been added (each server counts the rounds of every rank), so all
 * workers end on the same parameters.
 */
public class GeoLoop implements TrainingLoop {
    private final TrainableModel model;
    private final DenseClient client;
    private final Examples train;
    private final LoopSettings settings;
    private final int rank;
    private final int workers;
    private final StepReporter reporter;
    private final int interval;
    private final double learningRate;
    private final ModelParameters shared;

    public GeoLoop(TrainableModel model, DenseClient client, Examples train, LoopSettings settings, int rank, int workers,
            StepReporter reporter, int interval, double learningRate) {
        if (interval < 1) {
            throw new IllegalArgumentException("GEO interval must be >= 1, got " + interval);
        }
        this.model = model;
        this.client = client;
        this.train = train;
        this.settings = settings;
        this.rank = rank;
        this.workers = workers;
        this.reporter = reporter;
        this.interval = interval;
        this.learningRate = learningRate;
        this.shared = new ModelParameters(model);
    }

    @Override
    public long totalSteps() {
        return Steps.total(train.size(), workers, rank, settings);
    }

    /** @return delta pushes each worker makes: one per {@code interval} steps, rounded up */
    public long rounds() {
        return (totalSteps() + interval - 1) / interval;
    }

    @Override
    public TrainingSummary run() {
        // a worker that took over a dead rank starts at a round's first step
        StepTally tally = new StepTally(reporter, settings.startStep(), totalSteps());
        long total = tally.total();
        long round = tally.global() / interval;
        PhaseTimes times = tally.times();
        shared.pullIntoModel(client, 0);
        INDArray[] local = copy(shared.values());
        times.pullDone();
        for (ScheduledStep scheduled : Steps.schedule(train.size(), workers, rank, settings)) {
            times.lap();
            LabeledData batch = train.gather(scheduled.examples());
            StepResult result = model.gradients(batch.features(), batch.labels());
            INDArray[] grads = shared.gradients(result);
            for (int p = 0; p < local.length; p++) {
                local[p].subi(grads[p].reshape(local[p].shape()).mul(learningRate));
            }
            writeIntoModel(local);
            Steps.delay(settings);
            times.computeDone();
            long done = tally.global() + 1; // steps done once this one is
            if (done % interval == 0 || done == total) {
                client.push(round, deltas(local));
                round++;
                times.pushDone();
                long waitFor = done == total ? rounds() : 0;
                shared.pullIntoModel(client, waitFor);
                local = copy(shared.values());
                times.pullDone();
            }
            tally.stepDone(scheduled.epoch(), scheduled.step(), result.loss(), batch.size());
        }
        return tally.summary();
    }

    private INDArray[] deltas(INDArray[] local) {
        INDArray[] base = shared.values();
        INDArray[] deltas = new INDArray[local.length];
        for (int p = 0; p < local.length; p++) {
            deltas[p] = local[p].sub(base[p]).divi(workers);
        }
        return deltas;
    }

    private void writeIntoModel(INDArray[] local) {
        for (int p = 0; p < local.length; p++) {
            model.setParam(model.params().get(p).name(), local[p]);
        }
    }

    private static INDArray[] copy(INDArray[] arrays) {
        INDArray[] copies = new INDArray[arrays.length];
        for (int p = 0; p < arrays.length; p++) {
            copies[p] = arrays[p].dup('c');
        }
        return copies;
    }
}
