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
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The non-BSP modes end to end on the real jars. With one worker, ASYNC must give exactly single-process
 * SGD (SSP too, but its bound never binds with one worker, so only its two-worker case below runs), and
 * GEO (local SGD, delta pushed every k steps and added by the server) must give single-process SGD at the
 * GEO learning rate, whatever the servers' optimizer. With two GEO
 * workers, both must end on the same global parameters. With two ASYNC or SSP workers, one slowed, the
 * server must apply every push exactly once (counts, and the final parameters are the initial ones minus
 * lr x the sum of every pushed gradient, within 1e-5), and SSP must never serve a pull more than its bound ahead
 * of the slowest worker (the server's {@code ps_server_ssp_staleness_served_max}), yet use the bound.
 */
class ConsistencyModesIT {
    private static final int SAMPLES = 256;
    private static final int BATCH = 16;
    private static final int STEPS = 20;
    private static final long SEED = 11;
    private static final double LR = 0.1;
    private static final java.util.regex.Pattern HTTP_PORT = java.util.regex.Pattern.compile("Netty started on port (\\d+)");
    private static final java.util.regex.Pattern STALENESS_SERVED = java.util.regex.Pattern.compile(
            "(?m)^ps_server_ssp_staleness_served_max\\S* ([0-9.eE+-]+)$");

    @ParameterizedTest(name = "{0} with one worker equals single-process SGD")
    @CsvSource({
            "ASYNC, --ps.server.pull-timeout=60s",
            "GEO,   --ps.consistency.geo-interval=5"})
    void oneWorkerMatchesPlainSgd(String mode, String extra) throws Exception {
        try (LocalCluster cluster = new LocalCluster("modes-" + mode.toLowerCase())) {
            Path out = cluster.logDir().resolve("params");
            List<NodeProcess> workers = start(cluster, mode, extra, 1, out).workers();
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
            List<NodeProcess> workers = start(cluster, "GEO", "--ps.consistency.geo-interval=5", 2, out).workers();
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

    @ParameterizedTest(name = "{0} with two workers, worker 1 slowed: every push applied once{2}")
    @CsvSource({
            "ASYNC, --ps.server.pull-timeout=60s, ''",
            "SSP,   --ps.consistency.staleness=2, ' and never more than 2 steps apart'"})
    void twoWorkersWithAStraggler(String mode, String extra, String what) throws Exception {
        try (LocalCluster cluster = new LocalCluster("modes-" + mode.toLowerCase() + "-straggler")) {
            Path out = cluster.logDir().resolve("params");
            Started job = start(cluster, mode, extra, 2, out, "100ms");
            awaitSuccess(job.workers());
            NodeProcess server = job.server();
            int port = Integer.parseInt(server.awaitLog(HTTP_PORT, Duration.ofSeconds(1)).group(1));
            String status = NodeProcess.poll("the server's status", Duration.ofSeconds(10),
                    () -> LocalCluster.get(port, "/api/v1/status"));
            int pushes = 2 * (STEPS / 2);
            Matcher sliceCount = java.util.regex.Pattern.compile("\"slices\":(\\d+)").matcher(status);
            assertThat(sliceCount.find()).as(status).isTrue();
            int slices = Integer.parseInt(sliceCount.group(1)); // every push carries a gradient for each slice
            assertThat(status).as("every push applied exactly once").contains("\"pushesApplied\":" + pushes,
                    "\"updatesApplied\":" + slices * pushes, "\"minVersion\":" + pushes, "\"maxVersion\":" + pushes,
                    "\"workerClocks\":[" + STEPS / 2 + "," + STEPS / 2 + "]");
            // SGD: the servers end at the initial values minus lr x every pushed gradient. The worker that finished
            // last pulled after the other's final pull, which came after that one's last push: it reads exactly
            // that. (Usually the slowed worker; a late start of the other can make it the other one.)
            Map<String, INDArray> expected = new java.util.HashMap<>();
            for (Map.Entry<String, INDArray> initial : ReferenceTraining.initial(SEED).entrySet()) {
                INDArray sum = pushed(out, 0, initial.getKey()).add(pushed(out, 1, initial.getKey()));
                expected.put(initial.getKey(), initial.getValue().sub(sum.reshape(initial.getValue().shape()).mul(LR)));
            }
            ReferenceTraining.assertWorkerParams(out, rankOfLastToFinish(job.workers()), expected, 1e-5);
            assertThat(ReferenceTraining.distance(expected, ReferenceTraining.initial(SEED))).isGreaterThan(1e-3);
            String metrics = NodeProcess.poll("the server's metrics", Duration.ofSeconds(10),
                    () -> LocalCluster.get(port, "/actuator/prometheus"));
            Matcher served = STALENESS_SERVED.matcher(metrics);
            assertThat(served.find()).as(metrics).isTrue();
            double gap = Double.parseDouble(served.group(1));
            if (mode.equals("SSP")) {
                assertThat(gap).as("the fast worker ran ahead, but never past the bound").isBetween(1.0, 2.0);
            } else {
                assertThat(gap).isZero();
            }
        }
    }

    private static INDArray pushed(Path out, int rank, String name) {
        return org.nd4j.linalg.factory.Nd4j.createFromNpyFile(
                out.resolve("worker-" + rank).resolve("pushed").resolve(name + ".npy").toFile());
    }

    private record Started(NodeProcess server, List<NodeProcess> workers) {
    }

    private static Started start(LocalCluster cluster, String mode, String extra, int workers, Path out)
            throws Exception {
        return start(cluster, mode, extra, workers, out, "0ms");
    }

    /** @param slowDelay extra pause per step of worker 1 */
    private static Started start(LocalCluster cluster, String mode, String extra, int workers, Path out,
                                 String slowDelay) throws Exception {
        cluster.startScheduler(1, workers);
        NodeProcess server = cluster.startServer(0, 1, workers, "--ps.consistency.mode=" + mode, "--ps.optimizer.type=SGD",
                "--ps.optimizer.learning-rate=" + LR, "--ps.consistency.geo-learning-rate=" + LR, extra.trim());
        List<NodeProcess> started = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            started.add(cluster.startWorker(w, 1, workers, "--ps.worker.model=SOFTMAX", "--ps.worker.dataset.format=SYNTHETIC",
                    "--ps.worker.dataset.train-limit=" + SAMPLES, "--ps.worker.dataset.test-limit=64",
                    "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.epochs=2",
                    "--ps.worker.training.max-steps=" + (workers == 1 ? STEPS : STEPS / 2), "--ps.worker.training.seed=" + SEED,
                    "--ps.worker.training.log-interval=5", "--ps.worker.output.parameters-dir=" + out,
                    "--ps.worker.training.step-delay=" + (w == 1 ? slowDelay : "0ms")));
        }
        return new Started(server, started);
    }

    /** @return the rank of the worker whose "Training finished" line is the latest (ranks follow registration order) */
    private static int rankOfLastToFinish(List<NodeProcess> workers) {
        java.util.regex.Pattern finished = java.util.regex.Pattern.compile(
                "(?m)^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) .*Training finished");
        int rank = -1;
        String latest = "";
        for (NodeProcess worker : workers) {
            String log = worker.logText();
            Matcher at = finished.matcher(log);
            Matcher rankOf = java.util.regex.Pattern.compile("with rank (\\d+)").matcher(log);
            assertThat(at.find() && rankOf.find()).as(worker.name() + "\n" + worker.tail()).isTrue();
            if (at.group(1).compareTo(latest) >= 0) {
                latest = at.group(1);
                rank = Integer.parseInt(rankOf.group(1));
            }
        }
        return rank;
    }

    private static void awaitSuccess(List<NodeProcess> workers) {
        for (NodeProcess worker : workers) {
            assertThat(worker.awaitExit(Duration.ofMinutes(4))).as(worker.name() + "\n" + worker.tail()).isZero();
        }
    }
}
