package io.jvmps.cluster;

import io.jvmps.client.dataset.MnistSplit;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user's own model and data through 2 servers and 2 workers: a SameDiff file built by code outside the
 * product (its own variable names, preprocessing in the graph) trains on MNIST written as CSV; rank 0
 * exports the trained model, and {@code predict} reads that file with SameDiff alone and finds the accuracy
 * the job reported. A bad CSV row stops a worker with the file and line named.
 */
class OwnModelIT {
    private static final int SERVERS = 2;
    private static final int WORKERS = 2;
    private static final Pattern FINISHED = Pattern.compile("Job finished: test accuracy ([0-9.]+)% \\((\\d+)/(\\d+)\\)");

    @Test
    void aModelFileTrainsOnCsvDataAndItsExportPredictsTheReportedAccuracy() throws Exception {
        try (LocalCluster cluster = new LocalCluster("own-model")) {
            Path files = cluster.freshDir("user-files");
            Path model = UserModelFiles.pixelMlp(files.resolve("mlp.sd"), 11);
            Path train = UserModelFiles.mnistCsv(files.resolve("train.csv"), MnistSplit.TRAIN, 6000);
            Path test = UserModelFiles.mnistCsv(files.resolve("test.csv"), MnistSplit.TEST, 1000);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=0.1", "--ps.consistency.mode=SYNC");
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, withGraph(model, "--ps.worker.dataset.format=CSV",
                        "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + test, "--ps.worker.dataset.csv.label=digit",
                        "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=2", "--ps.worker.output.model-dir=" + export,
                        "--ps.worker.training.step-delay=25ms"));
            }
            exportWhileTraining(cluster, workers, export);
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(5))).as(worker.name() + "\n" + worker.tail()).isZero();
            }
            assertThat(workers[0].logText()).contains("model " + model + " with 50890 parameters");
            String exported = "Exported the trained model to " + export.resolve("model.sd").toAbsolutePath();
            assertThat(java.util.Arrays.stream(workers).filter(w -> w.logText().contains(exported))).as("rank 0 exports")
                    .hasSize(1);
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("1000");
            assertThat(Double.parseDouble(job.group(1))).isGreaterThanOrEqualTo(85.0);
            assertThat(Files.readString(export.resolve("model.json"))).contains("\"testCorrect\" : " + job.group(2))
                    .contains("\"input\" : \"pixels\"").contains("\"data\" : \"CSV\"").contains("\"mode\" : \"SYNC\"");

            Matcher predicted = PredictTool.run(cluster, "--model=" + export,
                    "--data-file=" + test, "--output=" + files.resolve("predictions.csv"));
            assertThat(predicted.group(2)).isEqualTo(job.group(2));
            assertThat(predicted.group(3)).isEqualTo("1000");
            List<String> lines = Files.readAllLines(files.resolve("predictions.csv"));
            assertThat(lines).hasSize(1001);
        }
    }

    /** @return the arguments naming {@link UserModelFiles#pixelMlp}'s file and variables, then {@code more} */
    private static String[] withGraph(Path model, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("--ps.worker.model=" + model,
                "--ps.worker.graph.input=pixels", "--ps.worker.graph.label=digit", "--ps.worker.graph.loss=xent",
                "--ps.worker.graph.prediction=class_probs"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** Rank 1 refuses; rank 0 writes {@code step-<N>/} at the end of a step while the job runs. */
    private static void exportWhileTraining(LocalCluster cluster, NodeProcess[] workers, Path export) throws Exception {
        Pattern rank = Pattern.compile("registered as \\S+ with rank (\\d)");
        int[] ports = new int[WORKERS];
        for (NodeProcess worker : workers) {
            int r = Integer.parseInt(worker.awaitLog(rank, Duration.ofMinutes(2)).group(1));
            ports[r] = Integer.parseInt(worker.awaitLog(Pattern.compile("Netty started on port (\\d+)"),
                    Duration.ofMinutes(2)).group(1));
        }
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.function.IntFunction<java.net.http.HttpResponse<String>> post = port -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port
                                + "/api/v1/export")).header("Authorization", "Bearer " + cluster.secret())
                        .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        java.net.http.HttpResponse<String> refused = post.apply(ports[1]);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.body()).contains("\"code\":\"NOT_READY\"").contains("cannot export now");
        java.net.http.HttpResponse<String> written = NodeProcess.poll("an export from rank 0 while it trains",
                Duration.ofMinutes(2), () -> java.util.Optional.of(post.apply(ports[0])).filter(r -> r.statusCode() == 200));
        Matcher steps = Pattern.compile("\"steps\":(\\d+)").matcher(written.body());
        assertThat(steps.find()).as(written.body()).isTrue();
        assertThat(written.body()).contains("\"testExamples\":1000").contains("\"mode\":\"SYNC\"");
        assertThat(export.resolve("step-" + steps.group(1)).resolve("model.sd")).isRegularFile();
        assertThat(export.resolve("step-" + steps.group(1)).resolve("model.json")).isRegularFile();
    }

    @Test
    void numpyPairsWithDynamicShardingTrainAndPredict() throws Exception {
        try (LocalCluster cluster = new LocalCluster("own-model-npy")) {
            Path files = cluster.freshDir("user-files");
            Path model = UserModelFiles.pixelMlp(files.resolve("mlp.sd"), 5);
            Path train = UserModelFiles.mnistNpy(files, "train", MnistSplit.TRAIN, 6000);
            Path test = UserModelFiles.mnistNpy(files, "test", MnistSplit.TEST, 1000);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(SERVERS, WORKERS);
            for (int s = 0; s < SERVERS; s++) {
                cluster.startServer(s, SERVERS, WORKERS, "--ps.optimizer.type=SGD",
                        "--ps.optimizer.learning-rate=0.1", "--ps.consistency.mode=ASYNC");
            }
            NodeProcess[] workers = new NodeProcess[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                workers[w] = cluster.startWorker(w, SERVERS, WORKERS, withGraph(model, "--ps.worker.dataset.format=NPY",
                        "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.train-labels-file=" + files.resolve("train-y.npy"),
                        "--ps.worker.dataset.test-file=" + test,
                        "--ps.worker.dataset.test-labels-file=" + files.resolve("test-y.npy"), "--ps.worker.dataset.sharding=DYNAMIC",
                        "--ps.worker.dataset.partitions=8", "--ps.worker.training.batch-size=32", "--ps.worker.training.epochs=2",
                        "--ps.worker.output.model-dir=" + export));
            }
            for (NodeProcess worker : workers) {
                assertThat(worker.awaitExit(Duration.ofMinutes(5))).as(worker.name() + "\n" + worker.tail()).isZero();
                assertThat(worker.logText()).contains("Dynamic data sharding: 8 partitions per epoch")
                        .contains("Opened " + train + ": 6000 rows of 784 features (UINT8), 10 classes");
            }
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(Double.parseDouble(job.group(1))).isGreaterThanOrEqualTo(80.0);
            assertThat(java.util.Arrays.stream(workers).filter(w -> w.logText().contains(
                    "Every worker has finished; pulled the servers' final values for the export"))).hasSize(1);
            long exported = Long.parseLong(Files.readString(export.resolve("model.json"))
                    .replaceAll("(?s).*\"testCorrect\" : (\\d+).*", "$1"));

            Matcher predicted = PredictTool.run(cluster, "--model=" + export,
                    "--data-file=" + test, "--labels-file=" + files.resolve("test-y.npy"));
            assertThat(Long.parseLong(predicted.group(2))).isEqualTo(exported);
        }
    }

    /**
     * A ModelProvider in a jar of the plugin folder trains on LibSVM files (only the pixels that are not 0, spread
     * into dense rows of 784 features); its export predicts the reported accuracy from the LibSVM test file.
     */
    @Test
    void aModelProviderJarInThePluginFolderTrainsOnLibSvmFilesAndItsExportPredictsTheSame() throws Exception {
        try (LocalCluster cluster = new LocalCluster("own-model-provider")) {
            Path jar = ProviderJar.build(cluster.freshDir("provider"));
            Path files = cluster.freshDir("user-files");
            Path train = UserModelFiles.mnistLibSvm(files.resolve("train.svm"), MnistSplit.TRAIN, 3000);
            Path test = UserModelFiles.mnistLibSvm(files.resolve("test.svm"), MnistSplit.TEST, 500);
            Path export = files.resolve("export");
            NodeProcess scheduler = cluster.startScheduler(1, 1);
            cluster.startServer(0, 1, 1, "--ps.optimizer.type=SGD", "--ps.optimizer.learning-rate=0.1",
                    "--ps.consistency.mode=SYNC");
            NodeProcess worker = cluster.startWorker(0, 1, 1, "--ps.worker.plugins-dir=" + jar.getParent(),
                    "--ps.worker.model=" + ProviderJar.NAME, "--ps.worker.dataset.format=LIBSVM",
                    "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + test,
                    "--ps.worker.dataset.num-features=784", "--ps.worker.training.epochs=2",
                    "--ps.worker.training.batch-size=32", "--ps.worker.output.model-dir=" + export);
            assertThat(worker.awaitExit(Duration.ofMinutes(3))).as(worker.tail()).isZero();
            assertThat(worker.logText()).contains("Plugin jars from " + jar.getParent().toAbsolutePath()
                    + ": [wide-softmax.jar]").contains("model wide-softmax with " + ProviderJar.PARAMETERS + " parameters")
                    .contains("Indexed " + train + ": 3000 examples of 784 features, 10 classes");
            Matcher job = scheduler.awaitLog(FINISHED, Duration.ofSeconds(30));
            assertThat(job.group(3)).isEqualTo("500");
            assertThat(Double.parseDouble(job.group(1))).isGreaterThan(75.0);
            assertThat(Files.readString(export.resolve("model.json"))).contains("\"data\" : \"LIBSVM\"");
            Matcher predicted = PredictTool.run(cluster, "--model=" + export, "--data-file=" + test);
            assertThat(predicted.group(2)).isEqualTo(job.group(2));
        }
    }

    @Test
    void aBadCsvRowStopsTheWorkerNamingTheFileAndLine() throws Exception {
        try (LocalCluster cluster = new LocalCluster("own-model-bad-row")) {
            Path files = cluster.freshDir("user-files");
            Path model = UserModelFiles.pixelMlp(files.resolve("mlp.sd"), 11);
            Path train = UserModelFiles.mnistCsv(files.resolve("train.csv"), MnistSplit.TRAIN, 50);
            List<String> lines = new java.util.ArrayList<>(Files.readAllLines(train));
            lines.set(17, lines.get(17).replaceFirst("^[0-9]+,", "x7,"));
            Files.write(train, lines);
            cluster.startScheduler(1, 1);
            NodeProcess worker = cluster.startWorker(0, 1, 1, withGraph(model, "--ps.worker.dataset.format=CSV",
                    "--ps.worker.dataset.train-file=" + train, "--ps.worker.dataset.test-file=" + train, "--ps.worker.dataset.csv.label=digit"));
            assertThat(worker.awaitExit(Duration.ofMinutes(2))).as(worker.tail()).isNotZero();
            assertThat(worker.logText()).contains("Worker failed: [INVALID_ARGUMENT] " + train + " line 18: column 1 (p0) "
                    + "'x7' is not a number").as("a bad row is the user's data, not a bug: no stack trace")
                    .doesNotContain("\tat ");
        }
    }
}
