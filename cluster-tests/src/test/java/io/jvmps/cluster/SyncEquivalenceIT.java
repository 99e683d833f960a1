package io.jvmps.cluster;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * BSP with 2 servers and 2 workers gives the same parameters as plain single-process SGD on the
 * same batches (each step's gradient = mean of the two workers' batch gradients), whether servers apply a
 * push whole or slice by slice ({@code ps.server.push-apply}).
 */
class SyncEquivalenceIT {
    private static final int SAMPLES = 512;
    private static final int BATCH = 16;
    private static final int STEPS = 20;
    private static final long SEED = 7;
    private static final double LR = 0.1;
    private static final int WORKERS = 2;
    private static final int SERVERS = 2;

    @ParameterizedTest(name = "push-apply {0}")
    @ValueSource(strings = {"WHOLE_PUSH", "PER_SLICE"})
    void twoWorkersInSyncModeMatchSingleProcessSgd(String pushApply) throws Exception {
        try (LocalCluster cluster = new LocalCluster("sync-equivalence-" + pushApply.toLowerCase(java.util.Locale.ROOT))) {
            Path out = cluster.logDir().resolve("params");
            cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=" + LR, "--ps.consistency.mode=SYNC",
                        "--ps.server.push-apply=" + pushApply);
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, "--ps.worker.model=SOFTMAX",
                        "--ps.worker.dataset.format=SYNTHETIC", "--ps.worker.dataset.train-limit=" + SAMPLES,
                        "--ps.worker.dataset.test-limit=128", "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.epochs=2",
                        "--ps.worker.training.max-steps=" + STEPS, "--ps.worker.training.seed=" + SEED, "--ps.worker.training.log-interval=1",
                        "--ps.worker.output.parameters-dir=" + out);
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + " exit code\n" + worker.tail())
                        .isZero();
            }

            Map<String, INDArray> expected = ReferenceTraining.sgd(SAMPLES, WORKERS, BATCH, SEED, STEPS, LR);
            for (int w = 0; w < WORKERS; w++) {
                ReferenceTraining.assertWorkerParams(out, w, expected, 1e-5);
            }
            // The run really trained: parameters moved away from their initial values.
            assertThat(ReferenceTraining.distance(expected, ReferenceTraining.initial(SEED))).isGreaterThan(1e-3);
        }
    }
}
