package io.jvmps.cluster;

import io.jvmps.client.dataset.MnistSplit;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code scripts/run-local.sh} with a user's own model file and data (pictures in one folder per class), on its
 * defaults otherwise, as a new user
 * runs it: the epochs come after {@code --} and the export folder from {@code PS_WORKER_OUTPUT_MODELDIR}. The
 * servers' cosine schedule spans exactly the job that ran (warm-up at most half of it, the last step's rate near
 * 0), the model lands where the environment asked, no MNIST is fetched for a job that does not read it, and
 * {@code predict} reads the pictures as the job did. (A model file on CSV data is {@link OwnModelIT}'s; the script
 * passes the dataset settings through the same way whatever the format.)
 */
class RunLocalOwnDataIT {
    private static final double PEAK = 0.005; // run-local's default Adam rate
    private static final Pattern SIZED = Pattern.compile("Learning-rate schedule sized for the job's (\\d+) updates: "
            + ".*; rate (\\S+) at update 1, (\\S+) at update (\\d+)");
    private static final Pattern STEPS = Pattern.compile("Training finished: (\\d+) steps");
    private static final Pattern ACCURACY = Pattern.compile("Final test accuracy: ([0-9.]+)% \\((\\d+)/(\\d+)\\)");

    @Test
    void aJobOnItsOwnPicturesGetsAScheduleOfItsOwnLengthAndItsModelWhereTheEnvironmentSays() throws Exception {
        try (LocalCluster cluster = new LocalCluster("run-local-own-images")) {
            Path files = cluster.freshDir("user-files");
            Path models = files.resolve("models");
            Path neverFetched = files.resolve("no-mnist-here");
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--",
                    "--ps.worker.graph.input=pixels", "--ps.worker.graph.label=digit",
                    "--ps.worker.graph.loss=xent", "--ps.worker.graph.prediction=class_probs",
                    "--ps.worker.training.epochs=2"));
            Path train = UserModelFiles.mnistImages(files.resolve("train"), MnistSplit.TRAIN, 1500);
            Path testData = UserModelFiles.mnistImages(files.resolve("test"), MnistSplit.TEST, 300);
            args.addAll(java.util.List.of("--ps.worker.model=" + UserModelFiles.unitPixelMlp(files.resolve("mlp.sd"), 5),
                    "--ps.worker.dataset.format=IMAGES", "--ps.worker.dataset.image.train-dir=" + train,
                    "--ps.worker.dataset.image.test-dir=" + testData));
            NodeProcess run = cluster.startScript("run-local", Map.of("PS_WORKER_OUTPUT_MODELDIR", models.toString(),
                    "PS_DATA_DIR", neverFetched.toString()), "scripts/run-local.sh", args.toArray(String[]::new));
            assertThat(run.awaitExit(Duration.ofMinutes(5))).as(run.tail()).isZero();
            String out = run.logText();
            Matcher accuracy = ACCURACY.matcher(out);
            assertThat(accuracy.find()).as(out).isTrue();
            assertThat(accuracy.group(3)).isEqualTo("300");
            assertThat(Double.parseDouble(accuracy.group(1))).as(out).isGreaterThanOrEqualTo(70.0);

            Matcher steps = STEPS.matcher(out);
            assertThat(steps.find()).as(out).isTrue();
            long jobSteps = Long.parseLong(steps.group(1)); // SYNC: one server update per step
            assertThat(jobSteps).as("2 epochs of 750 rows per worker in batches of 32").isBetween(46L, 48L);
            for (String server : new String[] {"server-0", "server-1"}) {
                String log = Files.readString(TestPaths.repo().resolve("run/logs/" + server + ".log"));
                Matcher sized = SIZED.matcher(log);
                assertThat(sized.find()).as(server + ":\n" + log).isTrue();
                assertThat(Long.parseLong(sized.group(1))).as("the job's own length").isEqualTo(jobSteps);
                long warmup = Math.min(200, jobSteps / 2);
                assertThat(Double.parseDouble(sized.group(2))).isCloseTo(PEAK / warmup, within(PEAK * 1e-5));
                assertThat(Double.parseDouble(sized.group(3))).as("the last step's rate: the end of the decay")
                        .isCloseTo(PEAK * (1 + Math.cos(Math.PI * (jobSteps - warmup - 1) / (jobSteps - warmup))) / 2,
                                within(PEAK * 1e-5))
                        .isLessThan(PEAK * 0.01);
            }

            assertThat(models.resolve("model.sd")).isRegularFile();
            assertThat(models.resolve("model.json")).isRegularFile();
            assertThat(out).contains("Trained model: " + models.resolve("model.sd"));
            assertThat(neverFetched).as("a job on its own data fetches no MNIST").doesNotExist();
            assertThat(Files.readString(models.resolve("model.json"))).contains("\"data\" : \"IMAGES\"")
                    .contains("\"channels\" : 1");
            // predict reads the pictures as the job did (shape and classes from model.json)
            Matcher predicted = PredictTool.run(cluster, "--model=" + models, "--data-dir=" + testData);
            assertThat(predicted.group(3)).isEqualTo("300");
            assertThat(predicted.group(2)).as("the export's test count").isEqualTo(accuracy.group(2));
        }
    }
}
