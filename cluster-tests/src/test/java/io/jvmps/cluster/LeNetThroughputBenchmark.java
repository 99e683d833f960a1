package io.jvmps.cluster;

import io.jvmps.client.dataset.LabeledData;
import io.jvmps.client.dataset.MnistDataset;
import io.jvmps.client.dataset.MnistSplit;
import io.jvmps.worker.model.ModelType;
import io.jvmps.worker.model.TrainableModel;
import io.jvmps.worker.model.baseline.EpochReport;
import io.jvmps.optimizer.OptimizerType;
import io.jvmps.client.train.LocalOptimizer;
import io.jvmps.worker.model.baseline.LocalSgdTrainer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * LeNet-5 training throughput (images/s): 2 servers + 2 workers in sync mode against the same
 * SameDiff model trained in one process without a PS, same images, same per-step batch.
 */
@Tag("benchmark")
class LeNetThroughputBenchmark {
    /** The single process trains on this many images after a warm-up; the cluster on all 60,000. */
    private static final int LOCAL_IMAGES = 12_800;
    private static final int BATCH = 64;
    private static final Pattern FINISHED = Pattern.compile(
            "Training finished: (\\d+) steps in ([0-9.]+) s \\(([0-9.]+) samples/s");

    @Test
    void psThroughputAgainstSingleProcess() throws Exception {
        Path data = TestPaths.mnist();
        double local = localImagesPerSecond(data);
        double ps = clusterImagesPerSecond(data);
        BenchmarkReport.record(String.format(Locale.ROOT,
                "LeNet-5 batch %d per step: PS (2 servers, 2 workers, sync, one epoch of 60000 images) %.0f images/s, "
                        + "single process without PS (%d images after warm-up) %.0f images/s, ratio %.2f",
                BATCH, ps, LOCAL_IMAGES, local, ps / local));
        assertThat(ps).isPositive();
    }

    private static double localImagesPerSecond(Path data) {
        LabeledData train = MnistDataset.load(data, MnistSplit.TRAIN, LOCAL_IMAGES);
        TrainableModel model = ModelType.LENET5.create(784, 10);
        LocalSgdTrainer trainer = new LocalSgdTrainer(model, LocalOptimizer.of(OptimizerType.ADAM, 1e-3), BATCH, 42, 42,
                Clock.systemUTC());
        trainer.trainEpoch(train.rows(0, BATCH * 10), 0); // warm-up: graph build and JIT
        EpochReport report = trainer.trainEpoch(train, 1);
        return report.samplesPerSecond();
    }

    private static double clusterImagesPerSecond(Path data) throws Exception {
        try (LocalCluster cluster = new LocalCluster("lenet-throughput")) {
            cluster.startScheduler(2, 2);
            for (int s = 0; s < 2; s++) {
                cluster.startServer(s, 2, 2);
            }
            NodeProcess[] workers = new NodeProcess[2];
            for (int w = 0; w < 2; w++) {
                workers[w] = cluster.startWorker(w, 2, 2, "--ps.worker.dataset.path=" + data,
                        "--ps.worker.dataset.test-limit=1000", "--ps.worker.training.epochs=1",
                        "--ps.worker.training.batch-size=" + BATCH, "--ps.worker.training.log-interval=50");
            }
            double total = 0;
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(10))).as(worker.tail()).isZero();
                Matcher m = FINISHED.matcher(worker.logText());
                assertThat(m.find()).as(worker.tail()).isTrue();
                total += Double.parseDouble(m.group(3));
            }
            return total;
        }
    }
}
