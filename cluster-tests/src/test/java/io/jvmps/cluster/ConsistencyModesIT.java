package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.linalg.api.ndarray.INDArray;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The non-BSP modes end to end on the real jars. With one worker, ASYNC and SSP must give exactly
 * single-process SGD, and GEO (local SGD, delta pushed every k steps and added by the server) must
 * give single-process SGD at the GEO learning rate, whatever the servers' optimizer. With two GEO
 * workers, both must end on the same global parameters.
 */
class ConsistencyModesIT {
    private static final int SAMPLES = 256;
    private static final int BATCH = 16;
    private static final int STEPS = 20;
    private static final long SEED = 11;
    private static final double LR = 0.1;

    @ParameterizedTest(name = "{0} with one worker equals single-process SGD")
    @CsvSource({
            "ASYNC, --ps.server.pull-timeout=60s",
            "SSP,   --ps.consistency.staleness=2",
            "GEO,   --ps.consistency.geo-interval=5"})
    void oneWorkerMatchesPlainSgd(String mode, String extra) throws Exception {
        try (LocalCluster cluster = new LocalCluster("modes-" + mode.toLowerCase())) {
            Path out = cluster.logDir().resolve("params");
            List<NodeProcess> workers = start(cluster, mode, extra, 1, out);
            awaitSuccess(workers);

            Map<String, INDArray> expected = ReferenceTraining.sgd(SAMPLES, 1, BATCH, SEED, STEPS, LR);
            ReferenceTraining.assertWorkerParams(out, 0, expected, 1e-5);
            assertThat(ReferenceTraining.distance(expected, ReferenceTraining.initial(SEED))).isGreaterThan(1e-3);
            assertThat(workers.get(0).logText()).contains("Training in " + mode + " mode");
        }
    }

    @Test
    void twoGeoWorkersEndOnTheSameGlobalParameters() throws Exception {
        try (LocalCluster cluster = new LocalCluster("modes-geo-two-workers")) {
            Path out = cluster.logDir().resolve("params");
            List<NodeProcess> workers = start(cluster, "GEO", "--ps.consistency.geo-interval=5", 2, out);
            awaitSuccess(workers);

            Map<String, INDArray> worker0 = new java.util.HashMap<>();
            for (String name : ReferenceTraining.initial(SEED).keySet()) {
                worker0.put(name, org.nd4j.linalg.factory.Nd4j.createFromNpyFile(
                        out.resolve("worker-0").resolve(name + ".npy").toFile()));
            }
            ReferenceTraining.assertWorkerParams(out, 1, worker0, 1e-6);
            assertThat(ReferenceTraining.distance(worker0, ReferenceTraining.initial(SEED))).isGreaterThan(1e-3);
            // GEO pushes one delta per 5 steps instead of one gradient per step.
            for (NodeProcess w : workers) {
                assertThat(w.logText()).containsPattern("Training finished: 10 steps");
            }
        }
    }

    private static List<NodeProcess> start(LocalCluster cluster, String mode, String extra, int workers, Path out)
            throws Exception {
        cluster.startScheduler(1, workers);
        cluster.startServer(0, 1, workers, "--ps.consistency.mode=" + mode, "--ps.optimizer.type=SGD",
                "--ps.optimizer.learning-rate=" + LR, "--ps.consistency.geo-learning-rate=" + LR, extra.trim());
        List<NodeProcess> started = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            started.add(cluster.startWorker(w, 1, workers, "--ps.worker.model=SOFTMAX", "--ps.worker.data=SYNTHETIC",
                    "--ps.worker.train-limit=" + SAMPLES, "--ps.worker.test-limit=64",
                    "--ps.worker.batch-size=" + BATCH, "--ps.worker.epochs=2",
                    "--ps.worker.max-steps=" + (workers == 1 ? STEPS : STEPS / 2), "--ps.worker.seed=" + SEED,
                    "--ps.worker.log-interval=5", "--ps.worker.output-dir=" + out));
        }
        return started;
    }

    private static void awaitSuccess(List<NodeProcess> workers) {
        for (NodeProcess worker : workers) {
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + "\n" + worker.tail()).isZero();
        }
    }
}
