package io.jvmps.cluster;

import io.jvmps.common.sharding.ParamSpec;
import io.jvmps.worker.data.EpochBatches;
import io.jvmps.worker.data.LabeledData;
import io.jvmps.worker.data.SyntheticData;
import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.StepResult;
import io.jvmps.worker.model.TrainableModel;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BSP with 2 servers and 2 workers gives the same parameters as plain single-process SGD on the
 * same batches (each step's gradient = mean of the two workers' batch gradients).
 */
class SyncEquivalenceIT {
    private static final int SAMPLES = 512;
    private static final int BATCH = 16;
    private static final int STEPS = 20;
    private static final long SEED = 7;
    private static final double LR = 0.1;
    private static final int WORKERS = 2;
    private static final int SERVERS = 2;

    @Test
    void twoWorkersInSyncModeMatchSingleProcessSgd() throws Exception {
        try (LocalCluster cluster = new LocalCluster("sync-equivalence")) {
            Path out = cluster.logDir().resolve("params");
            cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=" + LR, "--ps.consistency.mode=SYNC");
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, "--ps.worker.model=SOFTMAX",
                        "--ps.worker.data=SYNTHETIC", "--ps.worker.train-limit=" + SAMPLES,
                        "--ps.worker.test-limit=128", "--ps.worker.batch-size=" + BATCH, "--ps.worker.epochs=2",
                        "--ps.worker.max-steps=" + STEPS, "--ps.worker.seed=" + SEED, "--ps.worker.log-interval=1",
                        "--ps.worker.output-dir=" + out);
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
            }

            Map<String, INDArray> expected = referenceSgd();
            for (int w = 0; w < WORKERS; w++) {
                for (Map.Entry<String, INDArray> e : expected.entrySet()) {
                    INDArray actual = Nd4j.createFromNpyFile(out.resolve("worker-" + w).resolve(e.getKey() + ".npy").toFile());
                    double maxDiff = Math.abs(actual.reshape(e.getValue().shape()).sub(e.getValue()).maxNumber().doubleValue());
                    double minDiff = Math.abs(actual.reshape(e.getValue().shape()).sub(e.getValue()).minNumber().doubleValue());
                    assertThat(Math.max(maxDiff, minDiff)).as("worker %d parameter %s", w, e.getKey()).isLessThan(1e-5);
                }
            }
            // The run really trained: parameters moved away from their initial values.
            TrainableModel initial = ModelType.SOFTMAX.create(784, 10);
            Map<String, INDArray> start = initial.initialParams(SEED);
            String w0 = initial.params().get(0).name();
            assertThat(expected.get(w0).sub(start.get(w0)).norm2Number().doubleValue()).isGreaterThan(1e-3);
        }
    }

    /** Single-process SGD over the very batches the two workers use. */
    private static Map<String, INDArray> referenceSgd() {
        LabeledData data = SyntheticData.blobs(SAMPLES, 784, 10, 0.1, SEED, SEED);
        TrainableModel model = ModelType.SOFTMAX.create(784, 10);
        Map<String, INDArray> params = new HashMap<>();
        model.initialParams(SEED).forEach((k, v) -> params.put(k, v.dup()));
        int stepsPerEpoch = new EpochBatches(SAMPLES, WORKERS, 0, BATCH, SEED, 1).stepsPerEpoch();
        for (int global = 0; global < STEPS; global++) {
            int epoch = global / stepsPerEpoch + 1;
            int step = global % stepsPerEpoch;
            Map<String, INDArray> sum = new HashMap<>();
            for (int r = 0; r < WORKERS; r++) {
                params.forEach(model::setParam);
                LabeledData batch = data.gather(new EpochBatches(SAMPLES, WORKERS, r, BATCH, SEED, epoch).batchIndices(step));
                StepResult result = model.gradients(batch.features(), batch.labels());
                result.gradients().forEach((k, g) -> sum.merge(k, g.dup(), INDArray::add));
            }
            for (ParamSpec spec : model.params()) {
                INDArray avg = sum.get(spec.name()).div(WORKERS);
                params.put(spec.name(), params.get(spec.name()).sub(avg.mul(LR)));
            }
        }
        return params;
    }
}
