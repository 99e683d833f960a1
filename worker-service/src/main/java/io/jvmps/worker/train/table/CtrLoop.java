package io.jvmps.worker.train.table;

import io.jvmps.worker.train.loop.TrainingLoop;
import io.jvmps.worker.train.progress.PhaseTimes;
import io.jvmps.worker.train.progress.StepTally;
import io.jvmps.worker.train.progress.StepReporter;
import io.jvmps.worker.train.progress.TrainingSummary;
import io.jvmps.client.schedule.LoopSettings;
import io.jvmps.client.schedule.ScheduledStep;
import io.jvmps.client.schedule.Steps;
import io.jvmps.client.data.DenseClient;
import io.jvmps.worker.ctr.ClickData;
import io.jvmps.worker.ctr.EmbeddingLookup;
import io.jvmps.worker.ctr.WideDeepModel;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The wide-and-deep loop: for every step t, pull the dense parameters at version t (the consistency
 * mode decides what that waits for), look up the batch's wide and deep rows, prefetch the next batch's
 * rows, compute, send the rows' gradients to their lookups and push the dense gradients for step t. The
 * lookups are flushed at the end, so the servers hold every update.
 */
public class CtrLoop implements TrainingLoop {
    private final WideDeepModel model;
    private final ClickData train;
    private final EmbeddingLookup wide;
    private final EmbeddingLookup deep;
    private final DenseClient dense;
    private final LoopSettings settings;
    private final int rank;
    private final int workers;
    private final StepReporter reporter;

    public CtrLoop(WideDeepModel model, ClickData train, EmbeddingLookup wide, EmbeddingLookup deep, DenseClient dense,
            LoopSettings settings, int rank, int workers, StepReporter reporter) {
        this.model = model;
        this.train = train;
        this.wide = wide;
        this.deep = deep;
        this.dense = dense;
        this.settings = settings;
        this.rank = rank;
        this.workers = workers;
        this.reporter = reporter;
    }

    @Override
    public long totalSteps() {
        return Steps.total(train.size(), workers, rank, settings);
    }

    @Override
    public TrainingSummary run() {
        StepTally tally = new StepTally(reporter, settings.startStep(), totalSteps());
        INDArray[] params = model.emptyParams();
        PhaseTimes times = tally.times();
        int[] nextExamples = null;      // the next step's examples, when this epoch has one
        long[] nextWideIds = null;
        long[] nextDeepIds = null;
        for (ScheduledStep scheduled : Steps.schedule(train.size(), workers, rank, settings)) {
            long global = tally.global();
            times.lap();
            dense.pull(global, params);
            model.setParams(params);
            int[] examples = scheduled.examples();
            boolean prefetched = nextExamples != null; // the previous step computed this step's ids for its prefetch
            float[] wideRows = wide.lookup(prefetched ? nextWideIds : train.wideIds(examples));
            float[] deepRows = deep.lookup(prefetched ? nextDeepIds : train.deepIds(examples));
            nextExamples = scheduled.nextExamplesInEpoch();
            if (nextExamples != null) {
                nextWideIds = train.wideIds(nextExamples);
                nextDeepIds = train.deepIds(nextExamples);
                wide.prefetch(nextWideIds);
                deep.prefetch(nextDeepIds);
            }
            times.pullDone();
            WideDeepModel.Step result = model.step(wideRows, deepRows, labels(examples));
            Steps.delay(settings);
            times.computeDone();
            wide.update(global, result.wideGrad());
            deep.update(global, result.deepGrad());
            dense.push(global, result.dense());
            times.pushDone();
            tally.stepDone(scheduled.epoch(), scheduled.step(), result.loss(), examples.length);
        }
        wide.flush();
        deep.flush();
        dense.pull(tally.global(), params);
        model.setParams(params);
        return tally.summary();
    }

    private float[] labels(int[] examples) {
        float[] labels = new float[examples.length];
        for (int i = 0; i < examples.length; i++) {
            labels[i] = train.label(examples[i]);
        }
        return labels;
    }
}
