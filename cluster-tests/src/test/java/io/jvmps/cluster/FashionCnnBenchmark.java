package io.jvmps.cluster;

import io.jvmps.common.optimizer.OptimizerSettings;
import io.jvmps.common.optimizer.schedule.ScheduleSettings;
import io.jvmps.common.optimizer.schedule.ScheduleType;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.worker.model.FileModel;
import io.jvmps.client.train.GraphNames;
import io.jvmps.client.train.LocalOptimizer;
import io.jvmps.worker.model.baseline.LocalSgdTrainer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model that is not in the product's code on data that is not MNIST: the convolutional network of
 * {@code examples/fashion-cnn} (saved by that project, {@code -Dfashion.model=FILE}) on Fashion-MNIST
 * ({@code scripts/fetch-fashion-mnist.sh}), trained by 2 servers + 2 workers in SYNC (32 images per worker
 * and step, server-side Adam with warm-up and cosine decay), against the same file trained in this one
 * process with the same optimizer, schedule and batches (64 images per step: the union of the two workers'
 * batches). Both evaluate on the 10,000 test images.
 */
@Tag("benchmark")
class FashionCnnBenchmark {
    private static final int EPOCHS = Integer.getInteger("fashion.epochs", 10);
    private static final int BATCH = 32;
    private static final double LR = 0.002;
    private static final int WARMUP = 200;
    private static final int TRAIN = 60_000;
    private static final Pattern FINISHED = Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)");

    @Test
    void twoServersTwoWorkersAgainstOneProcess() throws Exception {
        Path model = Path.of(System.getProperty("fashion.model", "run/fashion/cnn.sd")).toAbsolutePath();
        Path data = TestPaths.repo().resolve("data/fashion-mnist");
        assertThat(model).as("build it: ./mvnw -q -f examples/fashion-cnn/pom.xml compile exec:java "
                + "-Dexec.args=" + model).isRegularFile();
        assertThat(data.resolve("train-images-idx3-ubyte.gz")).as("fetch it: scripts/fetch-fashion-mnist.sh")
                .isRegularFile();
        long steps = (long) Math.ceil(TRAIN / 2.0 / BATCH) * EPOCHS;
        long decay = steps - WARMUP;

        long clusterStart = System.nanoTime();
        double cluster = clusterAccuracy(model, data, decay);
        double clusterSeconds = (System.nanoTime() - clusterStart) / 1e9;

        long localStart = System.nanoTime();
        double local = localAccuracy(model, data, decay);
        double localSeconds = (System.nanoTime() - localStart) / 1e9;

        BenchmarkReport.record(String.format(Locale.ROOT, "Fashion-MNIST CNN (examples/fashion-cnn), %d epochs, Adam %.3f "
                        + "(warm-up %d, cosine over %d): 2 servers + 2 workers SYNC %.2f %% in %.0f s; one process, same "
                        + "batches of 64, %.2f %% in %.0f s; difference %.2f points", EPOCHS, LR, WARMUP, decay,
                cluster, clusterSeconds, local, localSeconds, cluster - local));
        assertThat(cluster).isGreaterThanOrEqualTo(91.0);
        assertThat(Math.abs(cluster - local)).isLessThanOrEqualTo(0.3);
    }

    private static double clusterAccuracy(Path model, Path data, long decay) throws Exception {
        try (LocalCluster cluster = new LocalCluster("fashion-cnn")) {
            NodeProcess scheduler = cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 2, "--ps.consistency.mode=SYNC", "--ps.optimizer.type=ADAM",
                        "--ps.optimizer.learning-rate=" + LR, "--ps.optimizer.schedule=COSINE",
                        "--ps.optimizer.warmup-steps=" + WARMUP, "--ps.optimizer.total-steps=" + decay);
            }
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.model=" + model,
                        "--ps.worker.dataset.path=" + data, "--ps.worker.training.epochs=" + EPOCHS,
                        "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.log-interval=500",
                        "--ps.worker.output.model-dir=" + cluster.logDir().resolve("model"));
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(60))).as(worker.tail()).isZero();
            }
            Matcher done = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(Files.isRegularFile(cluster.logDir().resolve("model/model.sd"))).isTrue();
            return Double.parseDouble(done.group(1));
        }
    }

    private static double localAccuracy(Path file, Path data, long decay) {
        LabeledData train = MnistDataset.load(data, MnistSplit.TRAIN, 0);
        LabeledData test = MnistDataset.load(data, MnistSplit.TEST, 0);
        FileModel model = FileModel.load(file, GraphNames.DEFAULT);
        OptimizerSettings adam = OptimizerSettings.defaults(LR)
                .withSchedule(new ScheduleSettings(ScheduleType.COSINE, WARMUP, 1, 1.0, decay, 0.0));
        LocalSgdTrainer trainer = new LocalSgdTrainer(model, new LocalOptimizer(OptimizerType.ADAM, adam), 2 * BATCH,
                42, 42, Clock.systemUTC());
        for (int epoch = 1; epoch <= EPOCHS; epoch++) {
            trainer.trainEpoch(train, epoch);
        }
        return 100.0 * trainer.accuracy(test);
    }
}
