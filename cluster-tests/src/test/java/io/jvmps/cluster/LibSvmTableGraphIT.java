package io.jvmps.cluster;

import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's sparse logistic regression as a SameDiff file ({@code weights} a table with a row per feature column),
 * trained by the stock worker from LibSVM files of clicks (-1/+1 labels, a tenth of 100 features per row, drawn
 * from a logistic truth): the files' features feed the graph's one lookup ({@code x}, {@code x_values}), the
 * label placeholder of width 1 makes the labels clicks, the worker trains partitions of the files leased from the
 * scheduler (dynamic sharding), the job scores the test file by AUC, and {@code predict} on the saved graph finds
 * the same AUC.
 */
class LibSvmTableGraphIT {
    @Test
    void aSparseLogisticRegressionFileTrainsOnLibSvmClicks() throws Exception {
        try (LocalCluster cluster = new LocalCluster("libsvm-table-graph")) {
            Path dir = cluster.freshDir("files");
            write(dir.resolve("train.svm"), 4000, 1);
            write(dir.resolve("test.svm"), 1000, 2);
            SameDiff sd = SameDiff.create();
            SDVariable ids = sd.placeHolder("x", DataType.INT64, -1, -1);
            SDVariable values = sd.placeHolder("x_values", DataType.FLOAT, -1, -1);
            SDVariable label = sd.placeHolder("label", DataType.FLOAT, -1, 1);
            SDVariable weights = sd.var("weights", Nd4j.zeros(DataType.FLOAT, 100, 1));
            SDVariable bias = sd.var("bias", Nd4j.zeros(DataType.FLOAT, 1, 1));
            SDVariable logit = sd.gather(weights, ids, 0).sum(2).mul(values).sum(true, 1).add(bias);
            sd.nn().sigmoid(logit).rename("prediction");
            sd.nn().softplus(logit).sub(label.mul(logit)).mean().rename("loss");
            Path model = dir.resolve("clicks.sd");
            sd.save(model.toFile(), false);
            cluster.startScheduler(1, 1);
            cluster.startServer(0, 1, 1, "--ps.optimizer.type=ADAGRAD", "--ps.optimizer.learning-rate=0.1");
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.worker.model=" + model,
                    "--ps.worker.graph.tables=weights", "--ps.worker.graph.prediction=prediction",
                    "--ps.worker.dataset.format=LIBSVM", "--ps.worker.dataset.train-file=" + dir.resolve("train.svm"),
                    "--ps.worker.dataset.test-file=" + dir.resolve("test.svm"), "--ps.worker.training.epochs=2",
                    "--ps.worker.training.batch-size=64", "--ps.worker.output.model-dir=" + dir.resolve("out"),
                    "--ps.worker.dataset.sharding=DYNAMIC", "--ps.worker.dataset.partitions=8");
            assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.tail()).isZero();
            // every partition of both epochs leased from the scheduler and reported done
            assertThat(worker.logText()).contains("dynamic data sharding, 8 partitions per epoch",
                    "No data partition left to lease (16 of 16 done)");
            Matcher auc = Pattern.compile("Test AUC on this worker's shard: ([0-9.]+)").matcher(worker.logText());
            assertThat(auc.find()).as(worker.tail()).isTrue();
            assertThat(Double.parseDouble(auc.group(1))).as("test AUC (0.90 when measured)").isGreaterThan(0.8);
            assertThat(worker.logText()).contains("tables [weights]");
            // the saved graph (the table a variable again) scores the test file to the job's AUC with predict
            Matcher predicted = PredictTool.run(cluster, Pattern.compile("auc: ([0-9.]+), log loss: ([0-9.]+)"),
                    "--model=" + dir.resolve("out").resolve("model.sd"), "--data=LIBSVM",
                    "--data-file=" + dir.resolve("test.svm"), "--libsvm.ids=x", "--task=BINARY",
                    "--prediction=prediction");
            assertThat(predicted.group(1)).isEqualTo(auc.group(1));
        }
    }

    /** Writes {@code rows} clicks of the truth {@code logit = -0.5 + sum of 0.8 * ((f % 7) - 3) * value}. */
    private static void write(Path file, int rows, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < rows; r++) {
            StringBuilder line = new StringBuilder();
            double logit = -0.5;
            for (int f = 1; f <= 100; f++) {
                if (random.nextInt(10) == 0) {
                    double v = random.nextDouble();
                    logit += v * ((f % 7) - 3) * 0.8;
                    line.append(' ').append(f).append(':').append((float) v);
                }
            }
            int y = random.nextDouble() < 1 / (1 + Math.exp(-logit)) ? 1 : -1;
            out.append(y > 0 ? "+1" : "-1").append(line).append('\n');
        }
        Files.writeString(file, out);
    }
}
